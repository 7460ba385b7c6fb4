// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "slidedeck.h"
#include "slidepainting.h"

#include "recommendation.h"

#include "calc/comparison.h"
#include "io/filewriter.h"
#include "model/scenariodiff.h"
#include "planfigures.h"
#include "ui/canvas/canvasscene.h"

#include <QBuffer>
#include <QChart>
#include <QDateTime>
#include <QLegend>
#include <QPainter>
#include <QPdfWriter>

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

} // namespace

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

QString letterOf(std::size_t i) { return QString(QChar('A' + static_cast<int>(i))); }

QString recommendationHtml(const QString& recommendation, const QString& whenEmpty)
{
    return recommendation.trimmed().isEmpty() ? "<p style='color:#888'>" + whenEmpty.toHtmlEscaped() + "</p>"
                                              : "<p>" + recommendation.toHtmlEscaped().replace("\n", "<br>") + "</p>";
}

SlideDeck::SlideDeck(const sim::PlanResults& results, const Catalog& catalog, QString recommendation)
    : mCatalog(&catalog), mRecommendation(std::move(recommendation))
{
    mAll.push_back(std::make_unique<PlanFigures>(results, catalog));
    mFigures = mAll.front().get();
}

SlideDeck::SlideDeck(const std::vector<std::shared_ptr<const sim::PlanResults>>& results, const Catalog& catalog,
                     QString recommendation)
    : mCatalog(&catalog), mRecommendation(std::move(recommendation))
{
    for (const auto& r : results)
        mAll.push_back(std::make_unique<PlanFigures>(*r, catalog));
    mFigures = mAll.front().get();
    if (results.size() > 1)
        mVerdict = std::make_shared<const PlanRecommendation>(recommend(*results[0], *results[1], catalog));
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
        case CVerdict: return QObject::tr("Recommended vs current: B against A");
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
    case Topology: f.drawTopologyFigure(p, body); break;
    case Stack: paintStack(p, body); break;
    case TradeOffs:
        drawChartWithLegend(p, QRectF(body.left(), body.top(), body.width() * 0.36, body.height()),
                            f.charts.sharingModes, zoom, std::max(7, text - 3));
        drawHtml(p, QRectF(body.left() + body.width() * 0.38, body.top(), body.width() * 0.62, body.height()),
                 f.matrixHtml(), std::max(7, text - 4));
        break;
    case Cost:
        drawChart(p, QRectF(body.left(), body.top(), body.width(), body.height() * 0.48), f.charts.cost, zoom);
        drawChart(p, QRectF(body.left(), body.top() + body.height() * 0.52, body.width(), body.height() * 0.48),
                  f.charts.memory, zoom);
        break;
    case Predictability: drawChart(p, body, f.charts.completion, zoom); break;
    case Recommendation:
        drawHtml(p, body,
                 recommendationHtml(
                     mRecommendation.trimmed().isEmpty() ? planFindings(mFigures->evaluation) : mRecommendation, {}),
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

Status SlideDeck::writePdf(const QString& path) const
{
    // Drawn in memory, then through the one writer: the target is the whole deck or untouched.
    QByteArray bytes;
    QBuffer file(&bytes);
    file.open(QIODevice::WriteOnly);
    {
        QPdfWriter pdf(&file);
        pdf.setTitle(QObject::tr("gpuplan slides: %1")
                         .arg(comparing() ? title(0) : QString::fromStdString(mFigures->scenario.name)));
        pdf.setCreator("gpuplan");
        pdf.setPageSize(QPageSize(QSizeF(254, 142.875), QPageSize::Millimeter, "16:9"));
        pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
        pdf.setResolution(96);
        QPainter p(&pdf);
        if (!p.isActive())
            return failure(path.toStdString(), QObject::tr("cannot start the PDF").toStdString());
        for (int i = 0; i < count(); ++i) {
            if (i > 0)
                pdf.newPage();
            paint(p, QRectF(0, 0, pdf.width(), pdf.height()), i);
        }
    }
    file.close();
    return io::writeFileAtomically(path, bytes);
}

} // namespace gp::ui
