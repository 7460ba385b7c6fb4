// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "palette.h"

#include "io/textformat.h"

#include "calc/modelsize.h"

#include <QHeaderView>
#include <QLineEdit>
#include <QMimeData>
#include <QPainter>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace gp::ui {

namespace {

using text::q;

constexpr int kKeyRole = Qt::UserRole;

/// The tree's drag carries the entry's key.
class PaletteTree : public QTreeWidget
{
public:
    using QTreeWidget::QTreeWidget;

protected:
    QMimeData* mimeData(const QList<QTreeWidgetItem*>& items) const override
    {
        auto* data = new QMimeData;
        if (!items.isEmpty() && !items.front()->data(0, kKeyRole).toString().isEmpty())
            data->setData(Palette::kMimeType, items.front()->data(0, kKeyRole).toString().toUtf8());
        return data;
    }
    QStringList mimeTypes() const override { return {Palette::kMimeType}; }
};

/// A colour per GPU architecture family, so that the icons tell generations apart.
QColor familyColour(const GpuSpec* g)
{
    if (!g)
        return QColor("#8c8c8c");
    static const std::map<std::string, QColor> colours = {
        {"Hopper", QColor("#76b900")},       {"Blackwell", QColor("#2e7d32")}, {"Ampere", QColor("#4e79a7")},
        {"Ada Lovelace", QColor("#b07aa1")}, {"CDNA 3", QColor("#e15759")},    {"CDNA 2", QColor("#f28e2b")}};
    const auto it = colours.find(g->architecture);
    return it != colours.end() ? it->second : QColor("#59a14f");
}

QIcon nodeIcon(int gpus, const QColor& colour)
{
    QPixmap pix(32, 32);
    pix.fill(Qt::transparent);
    QPainter p(&pix);
    p.setRenderHint(QPainter::Antialiasing);
    p.setPen(QPen(QColor("#555555"), 1.2));
    p.setBrush(QColor("#f4f4f4"));
    p.drawRoundedRect(QRectF(1.5, 4.5, 29, 23), 3, 3);
    const int cols = gpus > 4 ? 4 : std::max(gpus, 1);
    const int rows = (std::min(gpus, 8) + cols - 1) / cols;
    const double w = 24.0 / cols, h = rows > 1 ? 8.0 : 14.0;
    p.setPen(Qt::NoPen);
    p.setBrush(colour);
    for (int i = 0; i < std::min(gpus, 8); ++i)
        p.drawRect(QRectF(4 + (i % cols) * w, 8 + (i / cols) * (h + 2), w - 1.5, h));
    return QIcon(pix);
}

QIcon switchIcon(bool infiniband)
{
    QPixmap pix(32, 32);
    pix.fill(Qt::transparent);
    QPainter p(&pix);
    p.setRenderHint(QPainter::Antialiasing);
    p.setPen(QPen(QColor("#555555"), 1.2));
    p.setBrush(infiniband ? QColor("#dbe8f5") : QColor("#f5e6d3"));
    p.drawRoundedRect(QRectF(1.5, 10.5, 29, 12), 5, 5);
    p.setPen(Qt::NoPen);
    p.setBrush(QColor("#333333"));
    for (int i = 0; i < 6; ++i)
        p.drawEllipse(QPointF(6 + i * 4, 16.5), 1.2, 1.2);
    return QIcon(pix);
}

QIcon jobIcon(double billions, bool custom)
{
    QPixmap pix(32, 32);
    pix.fill(Qt::transparent);
    QPainter p(&pix);
    p.setRenderHint(QPainter::Antialiasing);
    // Stacked layers: more for a larger model.
    const int layers = custom ? 3 : std::clamp(static_cast<int>(std::log10(std::max(billions, 1.0)) * 2) + 2, 2, 6);
    p.setPen(QPen(QColor("#4e4e4e"), 1));
    for (int i = 0; i < layers; ++i) {
        p.setBrush(custom ? QColor("#d9d9d9") : QColor::fromHsv(30, 120 + i * 20, 240 - i * 10));
        p.drawRoundedRect(QRectF(5, 26 - i * 4.0 - 5, 22, 5), 2, 2);
    }
    return QIcon(pix);
}

} // namespace

Palette::Palette(const Catalog& catalog, QWidget* parent)
    : QWidget(parent), mFilter(new QLineEdit(this)), mTree(new PaletteTree(this))
{
    setObjectName("Palette");
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    mFilter->setObjectName("PaletteFilter");
    mFilter->setPlaceholderText(tr("Filter: H100, 400G, Llama…"));
    mFilter->setClearButtonEnabled(true);
    mTree->setObjectName("PaletteTree");
    mTree->setHeaderHidden(true);
    mTree->setIconSize(QSize(32, 32));
    mTree->setDragEnabled(true);
    mTree->setDragDropMode(QAbstractItemView::DragOnly);
    mTree->setSelectionMode(QAbstractItemView::SingleSelection);
    mTree->setRootIsDecorated(true);
    mTree->setIndentation(12);
    mTree->setUniformRowHeights(false);
    layout->addWidget(mFilter);
    layout->addWidget(mTree, 1);

    auto add = [](QTreeWidgetItem* under, const QString& title, const QString& detail, const QString& key,
                  const QIcon& icon, const QString& tip) {
        auto* item = new QTreeWidgetItem(under, {title + "\n" + detail});
        item->setIcon(0, icon);
        item->setData(0, kKeyRole, key);
        item->setToolTip(0, "<b>" + title.toHtmlEscaped() + "</b><br>" + detail.toHtmlEscaped() + "<br>" + tip);
        item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsDragEnabled);
        return item;
    };
    for (const NodeTemplate& t : catalog.nodeTemplates) {
        const GpuSpec* g = catalog.gpu(t.gpuId);
        const QString family = g ? tr("Nodes — %1 %2").arg(q(g->vendor), q(g->architecture)) : tr("Nodes — other");
        add(group(family), q(t.name),
            tr("%1 × %2, %3 × %4 Gb/s")
                .arg(t.gpuCount)
                .arg(g ? q(g->name) : q(t.gpuId))
                .arg(t.nicCount)
                .arg(t.nicSpeedGbps),
            "node:" + q(t.id), nodeIcon(t.gpuCount, familyColour(g)),
            tr("Drag onto the canvas to add a node, or double-click to add one at the centre of the view"));
    }
    for (const RackTemplate& t : catalog.rackTemplates) {
        const NodeTemplate* tray = catalog.nodeTemplate(t.trayTemplate);
        const GpuSpec* g = tray ? catalog.gpu(tray->gpuId) : nullptr;
        add(group(tr("Racks — rack-scale NVLink")), q(t.name),
            tr("%1 trays × %2 %3, one %4-GPU NVLink domain")
                .arg(t.trays)
                .arg(tray ? tray->gpuCount : 0)
                .arg(g ? q(g->name) : q(t.trayTemplate))
                .arg(t.domainGpus),
            "rack:" + q(t.id), nodeIcon(8, familyColour(g)),
            tr("Drag onto the canvas to add the rack (its compute trays in one NVLink domain), or double-click to "
               "add one at the centre of the view"));
    }
    for (const SwitchTemplate& t : catalog.switchTemplates) {
        const bool ib = t.fabric == "infiniband";
        add(group(ib ? tr("Switches — InfiniBand") : tr("Switches — Ethernet")), q(t.name),
            tr("%1 × %2 Gb/s").arg(t.ports).arg(t.portSpeedGbps), "switch:" + q(t.id), switchIcon(ib),
            tr("Drag onto the canvas to add a switch, or double-click to add one at the centre of the view"));
    }
    QTreeWidgetItem* jobs = group(tr("Jobs — model presets"));
    for (const ModelPreset& m : catalog.models)
        add(jobs, q(m.name),
            tr("%1 layers, %2 heads%3")
                .arg(m.arch.layers)
                .arg(m.arch.attentionHeads)
                .arg(m.arch.experts > 1 ? tr(", %1 experts").arg(m.arch.experts) : QString()),
            "job:" + q(m.id), jobIcon(calc::parameterCount(m.arch) / 1e9, false),
            tr("Drag onto a node to add a job of this model pinned there, or double-click to add one"));
    add(jobs, tr("Custom model"), tr("your own layers, sizes and experts"), "job:", jobIcon(0, true),
        tr("Double-click or drag onto a node to add a job with a model shape you enter"));
    mTree->expandAll();
    connect(mFilter, &QLineEdit::textChanged, this, &Palette::applyFilter);
    connect(mTree, &QTreeWidget::itemDoubleClicked, this, [this](QTreeWidgetItem* item) {
        if (item->parent())
            Q_EMIT templateActivated(item->data(0, kKeyRole).toString());
    });
}

QTreeWidgetItem* Palette::group(const QString& title)
{
    for (int i = 0; i < mTree->topLevelItemCount(); ++i)
        if (mTree->topLevelItem(i)->text(0) == title)
            return mTree->topLevelItem(i);
    auto* g = new QTreeWidgetItem(mTree, {title});
    QFont f = g->font(0);
    f.setBold(true);
    g->setFont(0, f);
    g->setFlags(Qt::ItemIsEnabled);
    return g;
}

void Palette::applyFilter(const QString& text)
{
    const QStringList words = text.simplified().split(' ', Qt::SkipEmptyParts);
    for (int i = 0; i < mTree->topLevelItemCount(); ++i) {
        QTreeWidgetItem* g = mTree->topLevelItem(i);
        int shown = 0;
        for (int c = 0; c < g->childCount(); ++c) {
            QTreeWidgetItem* item = g->child(c);
            const QString hay = g->text(0) + " " + item->text(0) + " " + item->data(0, kKeyRole).toString();
            const bool match = std::all_of(words.begin(), words.end(),
                                           [&hay](const QString& w) { return hay.contains(w, Qt::CaseInsensitive); });
            item->setHidden(!match);
            shown += match ? 1 : 0;
        }
        g->setHidden(shown == 0);
    }
}

QStringList Palette::keys() const
{
    QStringList out;
    for (int i = 0; i < mTree->topLevelItemCount(); ++i)
        for (int c = 0; c < mTree->topLevelItem(i)->childCount(); ++c)
            out << mTree->topLevelItem(i)->child(c)->data(0, kKeyRole).toString();
    return out;
}

QStringList Palette::visibleKeys() const
{
    QStringList out;
    for (int i = 0; i < mTree->topLevelItemCount(); ++i)
        for (int c = 0; c < mTree->topLevelItem(i)->childCount(); ++c)
            if (!mTree->topLevelItem(i)->isHidden() && !mTree->topLevelItem(i)->child(c)->isHidden())
                out << mTree->topLevelItem(i)->child(c)->data(0, kKeyRole).toString();
    return out;
}

QStringList Palette::visibleGroups() const
{
    QStringList out;
    for (int i = 0; i < mTree->topLevelItemCount(); ++i)
        if (!mTree->topLevelItem(i)->isHidden())
            out << mTree->topLevelItem(i)->text(0);
    return out;
}

QTreeWidgetItem* Palette::entry(const QString& key) const
{
    for (int i = 0; i < mTree->topLevelItemCount(); ++i)
        for (int c = 0; c < mTree->topLevelItem(i)->childCount(); ++c)
            if (mTree->topLevelItem(i)->child(c)->data(0, kKeyRole).toString() == key)
                return mTree->topLevelItem(i)->child(c);
    return nullptr;
}

} // namespace gp::ui
