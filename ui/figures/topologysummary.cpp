// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// The report's and the slides' topology of a large plan: its racks as blocks (planfigures.h).
#include "topologysummary.h"
#include "io/textformat.h"

#include "calc/evaluate.h"
#include "model/limits.h"
#include "model/units.h"

#include <QFontMetricsF>
#include <QObject>
#include <QPainter>

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>
#include <unordered_map>

namespace gp::ui {

namespace {

/// One block of the summarized topology: a rack, or a few consecutive ones.
struct RackBlock
{
    QString name;  ///< the first rack's name
    int racks = 0; ///< racks merged into it
    int nodes = 0;
    int gpus = 0;
    int oomGpus = 0;
    int sharedNodes = 0; ///< nodes not bare metal
    double usedBytes = 0.0;
    double capacityBytes = 0.0;
};

/// The plan's racks in scenario order (a node's group, else the switch it links to, else "no
/// rack"), merged into at most `maxBlocks` blocks of consecutive racks. One pass over the nodes,
/// links and GPUs.
std::vector<RackBlock> rackBlocks(const Scenario& s, const calc::Evaluation& ev, std::size_t maxBlocks, int& rackCount)
{
    std::unordered_map<std::string, const Group*> groups;
    for (const Group& g : s.topology.groups)
        groups.emplace(g.id, &g);
    std::unordered_map<std::string, const Switch*> switches;
    for (const Switch& sw : s.topology.switches)
        switches.emplace(sw.id, &sw);
    std::unordered_map<std::string, std::string> switchOf; // node -> the first switch it links to
    for (const Link& l : s.topology.links) {
        if (switches.count(l.to))
            switchOf.emplace(l.from, l.to);
        else if (switches.count(l.from))
            switchOf.emplace(l.to, l.from);
    }
    std::vector<RackBlock> racks;
    std::unordered_map<std::string, std::size_t> rackIndex; // rack key -> racks index
    std::unordered_map<std::string, std::size_t> rackOfNode;
    for (const Node& n : s.topology.nodes) {
        std::string key, name;
        if (const auto g = groups.find(n.group); !n.group.empty() && g != groups.end()) {
            key = "g:" + n.group;
            name = g->second->name.empty() ? n.group : g->second->name;
        } else if (const auto sw = switchOf.find(n.id); sw != switchOf.end()) {
            key = "s:" + sw->second;
            const Switch* x = switches.at(sw->second);
            name = x->name.empty() ? x->id : x->name;
        } else {
            key = "-";
            name = QObject::tr("no rack").toStdString();
        }
        auto [it, added] = rackIndex.emplace(key, racks.size());
        if (added)
            racks.push_back({QString::fromStdString(name), 1});
        RackBlock& r = racks[it->second];
        ++r.nodes;
        r.gpus += n.gpuCount;
        bool shared = n.sharing.mode != SharingMode::Exclusive;
        for (const auto& [gpu, c] : n.gpuSharing)
            shared = shared || c.mode != SharingMode::Exclusive;
        r.sharedNodes += shared ? 1 : 0;
        rackOfNode.emplace(n.id, it->second);
    }
    for (const calc::GpuResult& g : ev.gpus)
        if (const auto r = rackOfNode.find(g.node); r != rackOfNode.end()) {
            RackBlock& b = racks[r->second];
            b.usedBytes += g.usedBytes;
            b.capacityBytes += g.capacityBytes;
            b.oomGpus += g.oomRisk ? 1 : 0;
        }
    rackCount = static_cast<int>(racks.size());
    const std::size_t per =
        std::max<std::size_t>(1, (racks.size() + maxBlocks - 1) / std::max<std::size_t>(maxBlocks, 1));
    if (per == 1)
        return racks;
    std::vector<RackBlock> merged;
    for (std::size_t i = 0; i < racks.size(); ++i) {
        if (i % per == 0) {
            merged.push_back(racks[i]);
            continue;
        }
        RackBlock& b = merged.back();
        b.racks += 1;
        b.nodes += racks[i].nodes;
        b.gpus += racks[i].gpus;
        b.oomGpus += racks[i].oomGpus;
        b.sharedNodes += racks[i].sharedNodes;
        b.usedBytes += racks[i].usedBytes;
        b.capacityBytes += racks[i].capacityBytes;
    }
    return merged;
}

/// The largest font (at most `maxPt`) at which every line fits `width`; 0 when none from 4 pt does.
double fittingPointSize(const QStringList& lines, double width, double height, double maxPt)
{
    for (double pt = maxPt; pt >= 4.0; pt -= 0.5) {
        QFont f("DejaVu Sans");
        f.setPointSizeF(pt);
        const QFontMetricsF m(f);
        if (m.height() * static_cast<double>(lines.size()) > height)
            continue;
        if (std::all_of(lines.begin(), lines.end(), [&](const QString& l) { return m.horizontalAdvance(l) <= width; }))
            return pt;
    }
    return 0.0;
}

} // namespace

void drawTopologySummary(QPainter& p, const QRectF& area, const Scenario& scenario, const calc::Evaluation& evaluation)
{
    int rackCount = 0;
    const std::vector<RackBlock> blocks = rackBlocks(scenario, evaluation, limits::kReportTopologyMaxBlocks, rackCount);
    std::map<std::string, int> tiers;
    for (const Switch& sw : scenario.topology.switches)
        ++tiers[sw.tier];
    QStringList switchText;
    for (const auto& [tier, n] : tiers)
        switchText << QObject::tr("%1 %2 switches").arg(text::grouped(n)).arg(QString::fromStdString(tier));

    p.save();
    QFont f("DejaVu Sans");
    f.setPointSizeF(9);
    p.setFont(f);
    p.setPen(Qt::black);
    const int perBlock =
        blocks.empty() ? 1 : (rackCount + static_cast<int>(blocks.size()) - 1) / static_cast<int>(blocks.size());
    const QString head =
        QObject::tr("%1 racks%2%3")
            .arg(text::grouped(rackCount))
            .arg(perBlock > 1 ? QObject::tr(", up to %1 to a block").arg(perBlock) : QString())
            .arg(switchText.isEmpty() ? QString() : QObject::tr("; ") + switchText.join(QObject::tr(", ")));
    const double headHeight = QFontMetricsF(f).height() * 1.6;
    p.drawText(QRectF(area.left(), area.top(), area.width(), headHeight), Qt::AlignLeft | Qt::AlignVCenter, head);
    const QRectF grid = area.adjusted(0, headHeight, 0, 0);
    if (blocks.empty()) {
        p.restore();
        return;
    }
    // The grid of blocks: the column count that makes the blocks largest at about 3:2.
    const int n = static_cast<int>(blocks.size());
    int cols = 1;
    double bestSide = 0.0;
    for (int c = 1; c <= n; ++c) {
        const int rows = (n + c - 1) / c;
        const double side = std::min(grid.width() / c / 1.5, grid.height() / rows);
        if (side > bestSide) {
            bestSide = side;
            cols = c;
        }
    }
    const int rows = (n + cols - 1) / cols;
    const double cw = std::min(grid.width() / cols, bestSide * 1.5 * 1.6);
    const double ch = std::min(grid.height() / rows, bestSide * 1.6);
    const double pad = std::max(1.5, std::min(cw, ch) * 0.05);
    for (int i = 0; i < n; ++i) {
        const RackBlock& b = blocks[static_cast<std::size_t>(i)];
        const QRectF cell(grid.left() + (i % cols) * cw, grid.top() + (i / cols) * ch, cw, ch);
        const QRectF box = cell.adjusted(pad, pad, -pad, -pad);
        p.setPen(QPen(QColor("#8a8a8a"), 0.8));
        p.setBrush(b.oomGpus > 0 ? QColor("#fdecea") : QColor("#f4f6f8"));
        p.drawRoundedRect(box, 3, 3);
        // A bar of the memory in use along the bottom.
        const double used = b.capacityBytes > 0 ? std::clamp(b.usedBytes / b.capacityBytes, 0.0, 1.0) : 0.0;
        const double barH = std::max(2.0, box.height() * 0.14);
        const QRectF bar(box.left() + 2, box.bottom() - barH - 2, box.width() - 4, barH);
        p.setPen(Qt::NoPen);
        p.setBrush(QColor("#dfe3e8"));
        p.drawRect(bar);
        p.setBrush(QColor("#3b7dd8"));
        p.drawRect(QRectF(bar.left(), bar.top(), bar.width() * used, bar.height()));
        // Its text, as large as fits (no eliding: lines that do not fit are left out).
        QStringList lines{b.racks > 1 ? QObject::tr("%1 +%2").arg(b.name, QString::number(b.racks - 1)) : b.name,
                          QObject::tr("%1 nodes").arg(text::grouped(b.nodes)),
                          QObject::tr("%1 GPUs").arg(text::grouped(b.gpus)),
                          QObject::tr("%1 mem").arg(text::percent(used))};
        if (b.oomGpus > 0)
            lines << QObject::tr("%1 OOM risk").arg(text::grouped(b.oomGpus));
        const QRectF textArea = box.adjusted(3, 2, -3, -barH - 4);
        double pt = 0.0;
        while (!lines.isEmpty() && (pt = fittingPointSize(lines, textArea.width(), textArea.height(), 8.0)) <= 0.0)
            lines.removeAt(lines.size() > 1 ? 1 : 0); // keep the name and the warning longest
        if (pt <= 0.0)
            continue;
        QFont tf("DejaVu Sans");
        tf.setPointSizeF(pt);
        p.setFont(tf);
        const double lh = QFontMetricsF(tf).height();
        for (int l = 0; l < lines.size(); ++l) {
            const bool warning = b.oomGpus > 0 && l == lines.size() - 1 && lines[l].endsWith(QObject::tr("OOM risk"));
            p.setPen(warning ? QColor("#c62828") : (l == 0 ? Qt::black : QColor("#444444")));
            p.drawText(QRectF(textArea.left(), textArea.top() + l * lh, textArea.width(), lh),
                       Qt::AlignLeft | Qt::AlignVCenter, lines[l]);
        }
    }
    p.restore();
}

} // namespace gp::ui
