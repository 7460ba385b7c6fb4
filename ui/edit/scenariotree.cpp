// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "scenariotree.h"
#include "io/textformat.h"

#include "model/enumnames.h"

#include <QHeaderView>
#include <QScrollBar>

#include <map>

namespace gp::ui {

namespace {

using text::q;
template <typename E> QString n(E e) { return q(std::string(enumName(e))); }

} // namespace

QString describeGpuSharing(const SharingConfig& c)
{
    switch (c.mode) {
    case SharingMode::Exclusive: return QObject::tr("bare metal (exclusive)");
    case SharingMode::Passthrough: return QObject::tr("passthrough VM");
    case SharingMode::Mig: {
        QStringList parts;
        for (const auto& i : c.migInstances)
            parts << QString("%1@%2").arg(q(i.profile)).arg(i.start);
        return "MIG " + parts.join(" + ");
    }
    case SharingMode::Vgpu: return QString("vGPU %1 (%2)").arg(q(c.vgpuProfile), n(c.vgpuScheduler));
    case SharingMode::TimeSlicing: return QObject::tr("time-slicing x%1").arg(c.replicas);
    case SharingMode::Mps: {
        QString s = QObject::tr("MPS %1% threads").arg(c.mpsActiveThreadPct);
        if (c.mpsMemoryLimitGiB)
            s += QObject::tr(", %1 GiB limit").arg(*c.mpsMemoryLimitGiB);
        return s;
    }
    }
    return {};
}

ScenarioTree::ScenarioTree(QWidget* parent) : QTreeWidget(parent)
{
    setColumnCount(2);
    setHeaderLabels({tr("Item"), tr("Details")});
    header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    setAlternatingRowColors(true);
    setSelectionMode(QAbstractItemView::ExtendedSelection);
}

QStringList ScenarioTree::selectedNodeIds() const
{
    QStringList ids;
    for (QTreeWidgetItem* item : selectedItems()) {
        QTreeWidgetItem* node = item->data(0, Qt::UserRole).isValid() ? item : item->parent();
        if (node && node->data(0, Qt::UserRole).isValid()) {
            const QString id = node->data(0, Qt::UserRole).toString();
            if (!ids.contains(id))
                ids << id;
        }
    }
    return ids;
}

void ScenarioTree::showScenario(const Scenario& s, const Catalog& catalog, const calc::Evaluation& ev)
{
    // Rebuilt on every evaluation: keep the node selection and the scroll position.
    const QStringList selected = selectedNodeIds();
    const int scroll = verticalScrollBar() ? verticalScrollBar()->value() : 0;
    clear();
    std::map<std::string, const calc::JobResult*> results;
    for (const auto& r : ev.jobs)
        results[r.id] = &r;
    auto* topo = new QTreeWidgetItem(this, {tr("Topology"), tr("%1 nodes, %2 switches, %3 links")
                                                                .arg(s.topology.nodes.size())
                                                                .arg(s.topology.switches.size())
                                                                .arg(s.topology.links.size())});
    // Large clusters: list the first nodes only; the canvas is where clusters are browsed.
    constexpr std::size_t kMaxNodes = 64;
    for (std::size_t i = 0; i < s.topology.nodes.size() && i < kMaxNodes; ++i) {
        const Node& node = s.topology.nodes[i];
        const GpuSpec* gpu = catalog.gpu(node.gpuId);
        auto* item = new QTreeWidgetItem(
            topo, {q(node.name), tr("%1 x %2, %3 x %4 Gb/s NIC%5")
                                     .arg(node.gpuCount)
                                     .arg(gpu ? q(gpu->name) : q(node.gpuId))
                                     .arg(node.nics.count)
                                     .arg(node.nics.speedGbps)
                                     .arg(node.nics.gpudirectRdma ? tr(", GPUDirect RDMA") : QString())});
        item->setData(0, Qt::UserRole, q(node.id));
        item->setSelected(selected.contains(q(node.id)));
        for (int g = 0; g < node.gpuCount; ++g)
            new QTreeWidgetItem(item, {tr("GPU %1").arg(g), describeGpuSharing(node.sharingOf(g))});
    }
    if (s.topology.nodes.size() > kMaxNodes)
        new QTreeWidgetItem(topo, {tr("…"), tr("%1 more nodes").arg(s.topology.nodes.size() - kMaxNodes)});
    for (const Switch& sw : s.topology.switches)
        new QTreeWidgetItem(
            topo, {q(sw.name), tr("%1 switch, %2 x %3 Gb/s").arg(q(sw.tier)).arg(sw.ports).arg(sw.portSpeedGbps)});
    topo->setExpanded(true);

    auto* tenants = new QTreeWidgetItem(this, {tr("Tenants"), tr("%1 tenants").arg(s.tenants.size())});
    for (const Tenant& t : s.tenants) {
        auto* ti = new QTreeWidgetItem(
            tenants, {q(t.name), tr("priority %1, SLA: penalty ≤ %2%").arg(t.priority).arg(t.sla.maxPenaltyPct)});
        ti->setForeground(0, QColor(q(t.color)));
        for (const Job& j : t.jobs) {
            const Parallelism& p = j.parallelism;
            QString text = tr("%1, %2, %3, TP%4 PP%5 DP%6")
                               .arg(q(std::string(displayName(j.kind))))
                               .arg(j.model.preset.empty() ? tr("custom model") : q(j.model.preset))
                               .arg(n(j.precision))
                               .arg(p.tp)
                               .arg(p.pp)
                               .arg(p.dp);
            if (p.cp > 1)
                text += tr(" CP%1").arg(p.cp);
            auto* item = new QTreeWidgetItem(ti, {q(j.name), text});
            auto it = results.find(j.id);
            if (it == results.end())
                continue;
            const calc::JobResult& r = *it->second;
            const double gib = r.memory.totalBytes() / (1024.0 * 1024 * 1024);
            if (r.placed) {
                item->setText(1, text + tr(" — %1 GiB/GPU, penalty %2%, MFU %3%%4")
                                            .arg(gib, 0, 'f', 1)
                                            .arg(r.penalty * 100, 0, 'f', 1)
                                            .arg(r.perf.mfu * 100, 0, 'f', 1)
                                            .arg(r.oomRisk ? tr(", OUT-OF-MEMORY RISK") : QString()));
                if (r.oomRisk)
                    item->setForeground(1, QColor("#c0392b"));
            } else {
                item->setText(1, text + tr(" — not placed: %1").arg(q(r.reason)));
                item->setForeground(1, QColor("#c0392b"));
            }
            item->setToolTip(1, tr("Memory per GPU: weights %1, gradients %2, optimizer %3, activations %4, "
                                   "KV cache %5, runtime %6 GiB (docs/model-reference.md)")
                                    .arg(r.memory.weightsBytes / (1024.0 * 1024 * 1024), 0, 'f', 1)
                                    .arg(r.memory.gradientsBytes / (1024.0 * 1024 * 1024), 0, 'f', 1)
                                    .arg(r.memory.optimizerBytes / (1024.0 * 1024 * 1024), 0, 'f', 1)
                                    .arg(r.memory.activationsBytes.value_or(0) / (1024.0 * 1024 * 1024), 0, 'f', 1)
                                    .arg(r.memory.kvCacheBytes.value_or(0) / (1024.0 * 1024 * 1024), 0, 'f', 1)
                                    .arg(r.memory.runtimeBytes / (1024.0 * 1024 * 1024), 0, 'f', 1));
        }
        ti->setExpanded(true);
    }
    tenants->setExpanded(true);
    if (verticalScrollBar())
        verticalScrollBar()->setValue(scroll);
}

} // namespace gp::ui
