// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "presentation.h"

#include "calc/comparison.h"
#include "canvas/canvasscene.h"
#include "model/scenariodiff.h"
#include "planfigures.h"
#include "resultscharts.h"
#include "simulationcharts.h"

#include <QChart>
#include <QDateTime>
#include <QKeyEvent>
#include <QLegend>
#include <QPainter>
#include <QPdfWriter>
#include <QSaveFile>

namespace gp::ui {

namespace {

enum Slide
{
    Title,
    Summary,
    Topology,
    Stack,
    TradeOffs,
    Cost,
    Predictability,
    Recommendation,
    SlideCount
};

/// The layers of one sharing mode, top (the framework) to bottom (the GPU), and which layer
/// does the sharing.
struct StackLayers
{
    QString name;
    QStringList layers; ///< top to bottom
    int sharingLayer;   ///< index into layers
};

StackLayers layersOf(SharingMode mode)
{
    switch (mode) {
    case SharingMode::Exclusive:
        return {QObject::tr("Bare metal"),
                {"PyTorch / vLLM", "container runtime + device plugin (whole GPUs)", "NVIDIA driver", "GPU"},
                1};
    case SharingMode::Passthrough:
        return {
            QObject::tr("Passthrough VM"),
            {"PyTorch / vLLM", "container runtime in the VM", "guest driver", "hypervisor (VFIO passthrough)", "GPU"},
            3};
    case SharingMode::Mig:
        return {QObject::tr("MIG"),
                {"PyTorch / vLLM", "device plugin (nvidia.com/mig-<profile>)", "MIG instances (own SMs, memory, cache)",
                 "GPU"},
                2};
    case SharingMode::Vgpu:
        return {QObject::tr("vGPU"),
                {"PyTorch / vLLM", "container runtime in the VM", "vGPU guest driver",
                 "hypervisor + vGPU Manager (time-shared, framebuffer split)", "GPU"},
                3};
    case SharingMode::TimeSlicing:
        return {QObject::tr("Time-slicing"),
                {"PyTorch / vLLM", "device plugin (GPU advertised N times)", "CUDA time slices, shared memory", "GPU"},
                1};
    case SharingMode::Mps:
        return {QObject::tr("MPS"),
                {"PyTorch / vLLM", "device plugin (MPS clients)", "MPS server (one context, thread shares)", "GPU"},
                2};
    }
    return {};
}

void slideTitle(QPainter& p, const QRectF& area, const QString& title)
{
    QFont f("DejaVu Sans");
    f.setPixelSize(static_cast<int>(area.height() * 0.055));
    f.setBold(true);
    p.setFont(f);
    p.setPen(QColor("#1f3b57"));
    p.drawText(QRectF(area.left() + area.width() * 0.04, area.top() + area.height() * 0.03, area.width() * 0.92,
                      area.height() * 0.1),
               Qt::AlignLeft | Qt::AlignVCenter, title);
    p.setPen(QPen(QColor("#4e79a7"), std::max(2.0, area.height() * 0.004)));
    const double y = area.top() + area.height() * 0.135;
    p.drawLine(QPointF(area.left() + area.width() * 0.04, y), QPointF(area.right() - area.width() * 0.04, y));
}

QRectF bodyOf(const QRectF& area)
{
    return QRectF(area.left() + area.width() * 0.04, area.top() + area.height() * 0.16, area.width() * 0.92,
                  area.height() * 0.8);
}

} // namespace

SlideDeck::SlideDeck(const sim::PlanResults& results, const Catalog& catalog, QString recommendation)
    : mRecommendation(std::move(recommendation))
{
    mAll.push_back(std::make_unique<PlanFigures>(results, catalog));
    mFigures = mAll.front().get();
    mFigures->charts->sharingModesChart()->legend()->setAlignment(Qt::AlignBottom);
}

SlideDeck::SlideDeck(const std::vector<std::shared_ptr<const sim::PlanResults>>& results, const Catalog& catalog,
                     QString recommendation)
    : mRecommendation(std::move(recommendation))
{
    for (const auto& r : results)
        mAll.push_back(std::make_unique<PlanFigures>(*r, catalog));
    mFigures = mAll.front().get();
}

namespace {

enum ComparisonSlide
{
    CTitle,
    CKpis,
    CDiff,
    CTopology,
    CCost,
    CPredictability,
    CRecommendation,
    CCount
};

QString letterOf(std::size_t i) { return QString(QChar('A' + static_cast<int>(i))); }

} // namespace

void SlideDeck::paintComparison(QPainter& p, const QRectF& area, int slide) const
{
    const int text = std::max(8, static_cast<int>(area.height() / 55));
    const double zoom = std::max(1.0, area.height() / 560.0);
    if (slide == CTitle) {
        QStringList names;
        for (std::size_t i = 0; i < mAll.size(); ++i)
            names << QString("<b>%1</b>: %2")
                         .arg(letterOf(i), QString::fromStdString(mAll[i]->scenario.name).toHtmlEscaped());
        QFont big("DejaVu Sans");
        big.setPixelSize(static_cast<int>(area.height() * 0.08));
        big.setBold(true);
        p.setFont(big);
        p.setPen(QColor("#1f3b57"));
        p.drawText(area.adjusted(area.width() * 0.06, area.height() * 0.2, -area.width() * 0.06, -area.height() * 0.55),
                   Qt::AlignLeft | Qt::AlignBottom, title(CTitle));
        drawHtml(p,
                 area.adjusted(area.width() * 0.06, area.height() * 0.5, -area.width() * 0.06, -area.height() * 0.05),
                 "<p>" + names.join("<br>") + "</p><p style='color:#555'>" +
                     QDateTime::currentDateTime().toString("yyyy-MM-dd") + " · gpuplan</p>",
                 text + 4);
        return;
    }
    slideTitle(p, area, title(slide));
    const QRectF body = bodyOf(area);
    const double w = body.width() / static_cast<double>(mAll.size());
    auto column = [&](std::size_t i, double topShare = 0.08) {
        return QRectF(body.left() + w * static_cast<double>(i), body.top() + body.height() * topShare, w * 0.96,
                      body.height() * (1 - topShare));
    };
    auto columnHeads = [&] {
        for (std::size_t i = 0; i < mAll.size(); ++i)
            drawHtml(p, QRectF(body.left() + w * static_cast<double>(i), body.top(), w * 0.96, body.height() * 0.08),
                     QString("<b>%1</b>: %2")
                         .arg(letterOf(i), QString::fromStdString(mAll[i]->scenario.name).toHtmlEscaped()),
                     text);
    };
    switch (slide) {
    case CKpis: {
        std::vector<std::map<std::string, double>> values;
        for (const auto& f : mAll) {
            std::map<std::string, double> v = calc::kpiValues(f->evaluation.kpis);
            v["p95_completion_days"] = f->simulation->clusterP95Days;
            values.push_back(std::move(v));
        }
        QString html =
            "<table cellspacing='0' cellpadding='4' border='1' style='border-collapse:collapse'><tr><th></th>";
        for (std::size_t i = 0; i < mAll.size(); ++i)
            html += "<th>" + letterOf(i) + "</th>";
        html += "</tr>";
        for (const calc::KpiComparison& row : calc::compareKpis(values)) {
            html += "<tr><td>" + QString::fromStdString(row.spec.label).toHtmlEscaped() + "</td>";
            for (std::size_t i = 0; i < row.values.size(); ++i) {
                const QString cell = QString::fromStdString(calc::formatKpiValue(row.spec, row.values[i]));
                const char* colour = i == 0 || row.verdicts[i] == calc::Verdict::Same ? "#000000"
                                     : row.verdicts[i] == calc::Verdict::Better       ? "#2e7d32"
                                                                                      : "#c62828";
                const char* mark = i == 0 || row.verdicts[i] == calc::Verdict::Same ? ""
                                   : row.verdicts[i] == calc::Verdict::Better       ? " ▲ better"
                                                                                    : " ▼ worse";
                html += QString("<td align='right' style='color:%1'>%2%3</td>").arg(colour, cell, mark);
            }
            html += "</tr>";
        }
        drawHtml(p, body, html + "</table>", text + 6);
        break;
    }
    case CDiff: {
        QString html;
        for (std::size_t i = 1; i < mAll.size(); ++i) {
            const std::vector<std::string> lines = diffScenarios(mAll.front()->scenario, mAll[i]->scenario);
            html += QObject::tr("<p><b>A → %1</b> (%n change(s))</p><ul>", nullptr, static_cast<int>(lines.size()))
                        .arg(letterOf(i));
            for (std::size_t l = 0; l < lines.size() && l < 14; ++l)
                html += "<li>" + QString::fromStdString(lines[l]).toHtmlEscaped() + "</li>";
            if (lines.size() > 14)
                html += QObject::tr("<li>… and %1 more</li>").arg(lines.size() - 14);
            html += "</ul>";
        }
        drawHtml(p, body, html, text + 2);
        break;
    }
    case CTopology:
        columnHeads();
        for (std::size_t i = 0; i < mAll.size(); ++i)
            drawTopology(p, column(i), *mAll[i]->topology);
        break;
    case CCost:
        columnHeads();
        for (std::size_t i = 0; i < mAll.size(); ++i)
            drawChart(p, column(i), mAll[i]->charts->costChart(), zoom);
        break;
    case CPredictability:
        columnHeads();
        for (std::size_t i = 0; i < mAll.size(); ++i)
            drawChart(p, column(i), mAll[i]->charts->completion()->chart(), zoom);
        break;
    case CRecommendation:
        drawHtml(p, body,
                 mRecommendation.trimmed().isEmpty()
                     ? QObject::tr("<p style='color:#888'>(No recommendation written yet.)</p>")
                     : "<p>" + mRecommendation.toHtmlEscaped().replace("\n", "<br>") + "</p>",
                 text + 4);
        break;
    default: break;
    }
}

SlideDeck::~SlideDeck() = default;

int SlideDeck::count() const { return comparing() ? static_cast<int>(CCount) : static_cast<int>(SlideCount); }

QString SlideDeck::title(int slide) const
{
    if (comparing()) {
        QStringList letters;
        for (std::size_t i = 0; i < mAll.size(); ++i)
            letters << letterOf(i);
        switch (slide) {
        case CTitle: return QObject::tr("Comparing %1").arg(letters.join(QObject::tr(" vs ")));
        case CKpis: return QObject::tr("Which is better");
        case CDiff: return QObject::tr("What differs");
        case CTopology: return QObject::tr("The clusters and who runs where");
        case CCost: return QObject::tr("Where the money goes");
        case CPredictability: return QObject::tr("How predictable the completion is");
        case CRecommendation: return QObject::tr("Recommendation");
        default: return {};
        }
    }
    switch (slide) {
    case Title: return QString::fromStdString(mFigures->scenario.name);
    case Summary: return QObject::tr("Executive summary");
    case Topology: return QObject::tr("The cluster and who runs where");
    case Stack: return QObject::tr("Where the sharing happens");
    case TradeOffs: return QObject::tr("Sharing trade-offs");
    case Cost: return QObject::tr("Where the money goes");
    case Predictability: return QObject::tr("How predictable the completion is");
    case Recommendation: return QObject::tr("Recommendation");
    default: return {};
    }
}

void SlideDeck::paint(QPainter& p, const QRectF& area, int slide) const
{
    p.save();
    p.fillRect(area, Qt::white);
    p.setRenderHint(QPainter::Antialiasing);
    if (comparing()) {
        paintComparison(p, area, slide);
        p.restore();
        return;
    }
    const PlanFigures& f = *mFigures;
    const int text = std::max(8, static_cast<int>(area.height() / 55)); // points scale with the slide
    const double zoom = std::max(1.0, area.height() / 560.0);           // and so do the charts' texts
    if (slide == Title) {
        QFont big("DejaVu Sans");
        big.setPixelSize(static_cast<int>(area.height() * 0.08));
        big.setBold(true);
        p.setFont(big);
        p.setPen(QColor("#1f3b57"));
        p.drawText(
            area.adjusted(area.width() * 0.06, area.height() * 0.25, -area.width() * 0.06, -area.height() * 0.45),
            Qt::AlignLeft | Qt::AlignBottom | Qt::TextWordWrap, title(Title));
        drawHtml(p,
                 area.adjusted(area.width() * 0.06, area.height() * 0.58, -area.width() * 0.06, -area.height() * 0.05),
                 QString("<p>%1</p><p style='color:#555'>%2 · %3 GPUs · gpuplan</p>")
                     .arg(QString::fromStdString(f.scenario.description).toHtmlEscaped(),
                          QDateTime::currentDateTime().toString("yyyy-MM-dd"))
                     .arg(f.inventory.gpus),
                 text + 2);
        p.restore();
        return;
    }
    slideTitle(p, area, title(slide));
    const QRectF body = bodyOf(area);
    switch (slide) {
    case Summary:
        drawHtml(p, QRectF(body.left(), body.top(), body.width() * 0.52, body.height()), f.summaryHtml(), text + 2);
        drawHtml(p, QRectF(body.left() + body.width() * 0.55, body.top(), body.width() * 0.45, body.height()),
                 f.kpiTableHtml(), text);
        break;
    case Topology: drawTopology(p, body, *f.topology); break;
    case Stack: paintStack(p, body); break;
    case TradeOffs:
        drawChart(p, QRectF(body.left(), body.top(), body.width() * 0.42, body.height()), f.charts->sharingModesChart(),
                  zoom);
        drawHtml(p, QRectF(body.left() + body.width() * 0.44, body.top(), body.width() * 0.56, body.height()),
                 f.matrixHtml(), std::max(7, text - 3));
        break;
    case Cost:
        drawChart(p, QRectF(body.left(), body.top(), body.width(), body.height() * 0.48), f.charts->costChart(), zoom);
        drawChart(p, QRectF(body.left(), body.top() + body.height() * 0.52, body.width(), body.height() * 0.48),
                  f.charts->memoryChart(), zoom);
        break;
    case Predictability: drawChart(p, body, f.charts->completion()->chart(), zoom); break;
    case Recommendation:
        drawHtml(
            p, body,
            mRecommendation.trimmed().isEmpty()
                ? QObject::tr("<p style='color:#888'>(No recommendation written yet: File > Present asks for one.)</p>")
                : "<p>" + mRecommendation.toHtmlEscaped().replace("\n", "<br>") + "</p>",
            text + 4);
        break;
    default: break;
    }
    p.restore();
}

void SlideDeck::paintStack(QPainter& p, const QRectF& area) const
{
    const std::vector<SharingMode> modes = mFigures->modesUsed();
    if (modes.empty())
        return;
    const double gap = area.width() * 0.02;
    const double w = (area.width() - gap * static_cast<double>(modes.size() - 1)) / static_cast<double>(modes.size());
    QFont f("DejaVu Sans");
    f.setPixelSize(std::max(9, static_cast<int>(area.height() * 0.03)));
    for (std::size_t i = 0; i < modes.size(); ++i) {
        const StackLayers stack = layersOf(modes[i]);
        const QRectF column(area.left() + static_cast<double>(i) * (w + gap), area.top(), w, area.height());
        f.setBold(true);
        p.setFont(f);
        p.setPen(QColor("#1f3b57"));
        p.drawText(QRectF(column.left(), column.top(), column.width(), column.height() * 0.1), Qt::AlignCenter,
                   stack.name);
        f.setBold(false);
        p.setFont(f);
        const double top = column.top() + column.height() * 0.12;
        const double h = (column.height() * 0.86) / static_cast<double>(stack.layers.size());
        for (int l = 0; l < stack.layers.size(); ++l) {
            const QRectF box(column.left(), top + l * h, column.width(), h * 0.86);
            const bool sharing = l == stack.sharingLayer;
            p.setPen(QPen(sharing ? QColor("#c0392b") : QColor("#7f8c8d"), sharing ? 3 : 1));
            p.setBrush(sharing ? QColor("#fdecea")
                               : (l == stack.layers.size() - 1 ? QColor("#dfe9f3") : QColor("#f4f6f7")));
            p.drawRoundedRect(box, 6, 6);
            p.setPen(Qt::black);
            p.drawText(box.adjusted(6, 2, -6, -2), Qt::AlignCenter | Qt::TextWordWrap, stack.layers[l]);
        }
    }
}

QString SlideDeck::writePdf(const QString& path) const
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return QObject::tr("%1: %2").arg(path, file.errorString());
    {
        QPdfWriter pdf(&file);
        pdf.setTitle(QObject::tr("gpuplan slides: %1")
                         .arg(comparing() ? title(0) : QString::fromStdString(mFigures->scenario.name)));
        pdf.setCreator("gpuplan");
        pdf.setPageSize(QPageSize(QSizeF(254, 142.875), QPageSize::Millimeter, "16:9"));
        pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
        pdf.setResolution(96);
        QPainter p(&pdf);
        if (!p.isActive()) {
            file.cancelWriting();
            return QObject::tr("%1: cannot start the PDF").arg(path);
        }
        for (int i = 0; i < count(); ++i) {
            if (i > 0)
                pdf.newPage();
            paint(p, QRectF(0, 0, pdf.width(), pdf.height()), i);
        }
    }
    if (!file.commit())
        return QObject::tr("%1: %2").arg(path, file.errorString());
    return {};
}

PresentationWindow::PresentationWindow(std::unique_ptr<SlideDeck> deck, QWidget* parent)
    : QWidget(parent, Qt::Window), mDeck(std::move(deck))
{
    setAttribute(Qt::WA_DeleteOnClose);
    setWindowTitle(QObject::tr("gpuplan presentation"));
    setFocusPolicy(Qt::StrongFocus);
}

PresentationWindow::~PresentationWindow() = default;

PresentationWindow* PresentationWindow::open(std::unique_ptr<SlideDeck> deck, QWidget* parent, bool fullScreen)
{
    auto* window = new PresentationWindow(std::move(deck), parent);
    if (fullScreen)
        window->showFullScreen();
    else
        window->show();
    window->setFocus();
    return window;
}

void PresentationWindow::go(int slide)
{
    mCurrent = std::clamp(slide, 0, mDeck->count() - 1);
    update();
}

void PresentationWindow::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.fillRect(rect(), Qt::black);
    // The largest 16:9 area in the window, centred.
    QSizeF size(width(), width() * 9.0 / 16.0);
    if (size.height() > height())
        size = QSizeF(height() * 16.0 / 9.0, height());
    const QRectF area(QPointF((width() - size.width()) / 2, (height() - size.height()) / 2), size);
    mDeck->paint(p, area, mCurrent);
    p.setPen(QColor("#999999"));
    p.drawText(area.adjusted(0, 0, -12, -6), Qt::AlignRight | Qt::AlignBottom,
               QString("%1 / %2").arg(mCurrent + 1).arg(mDeck->count()));
}

void PresentationWindow::keyPressEvent(QKeyEvent* event)
{
    switch (event->key()) {
    case Qt::Key_Right:
    case Qt::Key_Down:
    case Qt::Key_Space:
    case Qt::Key_PageDown: go(mCurrent + 1); break;
    case Qt::Key_Left:
    case Qt::Key_Up:
    case Qt::Key_Backspace:
    case Qt::Key_PageUp: go(mCurrent - 1); break;
    case Qt::Key_Home: go(0); break;
    case Qt::Key_End: go(mDeck->count() - 1); break;
    case Qt::Key_Escape: close(); break;
    default: QWidget::keyPressEvent(event);
    }
}

} // namespace gp::ui
