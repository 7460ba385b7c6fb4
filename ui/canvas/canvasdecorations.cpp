// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// What an evaluation and the user's questions draw on the canvas's items: tenant colours,
// memory fill, noisiest-neighbour marks and link loads (decorate), a proposed plan's changes
// (previewPlan) and a chosen job's GPUs and links (highlightJobs). The scene's items and their
// sync with the document are canvasscene.cpp.
#include "calc/slots.h"
#include "canvasscene.h"
#include "io/textformat.h"
#include "linkitem.h"
#include "model/enumnames.h"
#include "model/scenariodiff.h"
#include "model/units.h"
#include "nodeitem.h"

#include <map>
#include <set>

namespace gp::ui {

namespace {
using text::q;
} // namespace

void CanvasScene::decorate(const Scenario& s, const calc::Evaluation& ev)
{
    // Which tenant holds each slot, and the memory on each GPU.
    std::map<std::string, QColor> tenantColor;
    for (const Tenant& t : s.tenants)
        tenantColor[t.id] = QColor(q(t.color));
    std::map<std::pair<std::string, int>, std::map<std::string, QColor>> held; // (node, gpu) -> slot label -> colour
    std::map<std::pair<std::string, int>, QStringList> runs;                   // (node, gpu) -> "job on slot"
    std::map<std::string, std::string> tenantName;
    for (const Tenant& t : s.tenants)
        tenantName[t.id] = t.name;
    for (const calc::JobResult& j : ev.jobs)
        for (const calc::UnitLocation& u : j.placement) {
            held[{u.node, u.gpu}][u.slot] = tenantColor[j.tenant];
            runs[{u.node, u.gpu}] << QObject::tr("%1 (%2) on %3").arg(q(j.name), q(tenantName[j.tenant]), q(u.slot));
        }
    // Each job's noisiest neighbour: its slots on the GPUs the two share get the mark, and
    // the node's tooltip says whom they cost most.
    std::map<std::string, const calc::JobResult*> byId;
    for (const calc::JobResult& j : ev.jobs)
        byId[j.id] = &j;
    std::map<std::pair<std::string, int>, std::set<std::string>> noisy; // (node, gpu) -> slot labels
    std::map<std::string, QStringList> notes;                           // node -> tooltip lines
    for (const calc::JobResult& j : ev.jobs) {
        const auto it = byId.find(j.noisiestNeighbour);
        if (j.noisiestNeighbour.empty() || it == byId.end())
            continue;
        for (const calc::UnitLocation& mine : j.placement)
            for (const calc::UnitLocation& theirs : it->second->placement)
                if (theirs.node == mine.node && theirs.gpu == mine.gpu &&
                    noisy[{theirs.node, theirs.gpu}].insert(theirs.slot).second)
                    notes[theirs.node] << QObject::tr("GPU %1: %2 costs %3 most (+%4 % of its bare-metal step)")
                                              .arg(theirs.gpu)
                                              .arg(q(it->second->name), q(j.name))
                                              .arg(j.noisiestNeighbourCost * 100.0, 0, 'f', 1);
    }
    // A job whose TP groups run over PCIe (issue 37): each node it uses says so.
    for (const calc::JobResult& j : ev.jobs)
        if (const std::string w = calc::tpLinkWarning(j); !w.empty()) {
            std::set<std::string> nodes;
            for (const calc::UnitLocation& u : j.placement)
                if (nodes.insert(u.node).second)
                    notes[u.node] << QObject::tr("Warning: %1: %2").arg(q(j.name), q(w));
        }
    std::map<std::pair<std::string, int>, const calc::GpuResult*> gpuResults;
    for (const calc::GpuResult& g : ev.gpus)
        gpuResults[{g.node, g.gpu}] = &g;

    Scenario one; // the slots of one node at a time, labelled as evaluate() labels them
    for (const Node& n : s.topology.nodes) {
        auto* item = qgraphicsitem_cast<NodeItem*>(mItems.value(q(n.id)));
        if (!item)
            continue;
        one.topology.nodes = {n};
        const std::vector<calc::Slot> slots = calc::buildSlots(one, mCatalog);
        std::vector<NodeItem::Gpu> gpus(static_cast<std::size_t>(std::max(n.gpuCount, 0)));
        std::map<int, int> perGpu;
        for (const calc::Slot& sl : slots)
            ++perGpu[sl.gpu];
        std::map<int, int> seen;
        for (const calc::Slot& sl : slots) {
            if (sl.gpu < 0 || sl.gpu >= n.gpuCount)
                continue;
            NodeItem::Slot v;
            const int k = seen[sl.gpu]++;
            if (sl.mode == SharingMode::Mig) {
                const MigProfile* p = mCatalog.gpu(n.gpuId) ? mCatalog.gpu(n.gpuId)->migProfile(*sl.profile) : nullptr;
                v.from = sl.start / 8.0;
                v.width = p ? p->memorySlices / 8.0 : 1.0 / 8.0;
            } else {
                v.from = static_cast<double>(k) / perGpu[sl.gpu];
                v.width = 1.0 / perGpu[sl.gpu];
            }
            const auto& labels = held[{n.id, sl.gpu}];
            if (auto it = labels.find(sl.label()); it != labels.end())
                v.tenant = it->second;
            if (auto it = noisy.find({n.id, sl.gpu}); it != noisy.end())
                v.noisiest = it->second.count(sl.label()) > 0;
            gpus[static_cast<std::size_t>(sl.gpu)].slots.push_back(v);
        }
        for (int g = 0; g < n.gpuCount; ++g) {
            NodeItem::Gpu& gpu = gpus[static_cast<std::size_t>(g)];
            const SharingConfig& sharing = n.sharingOf(g);
            QString text = QObject::tr("GPU %1: %2, %3")
                               .arg(g)
                               .arg(q(mCatalog.gpu(n.gpuId) ? mCatalog.gpu(n.gpuId)->name : n.gpuId),
                                    QString::fromUtf8(displayName(sharing.mode)));
            if (auto it = gpuResults.find({n.id, g}); it != gpuResults.end() && it->second->capacityBytes > 0) {
                gpu.memoryFill = it->second->usedBytes / it->second->capacityBytes;
                gpu.oomRisk = it->second->oomRisk;
                text += QObject::tr("\nMemory: %1 of %2 GiB%3")
                            .arg(it->second->usedBytes / kGiB, 0, 'f', 1)
                            .arg(it->second->capacityBytes / kGiB, 0, 'f', 1)
                            .arg(gpu.oomRisk ? QObject::tr(" — at risk of running out") : QString());
            }
            const QStringList& jobs = runs[{n.id, g}];
            text += jobs.isEmpty() ? QObject::tr("\nNo job runs here") : "\n" + jobs.join("\n");
            text += QObject::tr("\nDouble-click: how these numbers come about");
            gpu.description = text;
        }
        item->setGpus(std::move(gpus));
        item->setNotes(notes[n.id]);
    }
    for (const calc::LinkResult& l : ev.links)
        if (LinkItem* link = mLinks.value(q(l.id)))
            link->setUtilization(l.utilization);
    if (mLinkLayer)
        mLinkLayer->update(); // the bundles' colours
    mJobGpus.clear();
    for (const calc::JobResult& j : ev.jobs)
        for (const calc::UnitLocation& u : j.placement)
            mJobGpus[j.id][u.node].insert(u.gpu);
    highlightJobs(mHighlightedJobs); // the jobs may run elsewhere now
}

QStringList CanvasScene::previewPlan(const Scenario& current, const Scenario* plan)
{
    QStringList marked;
    for (const Node& n : current.topology.nodes) {
        auto* item = qgraphicsitem_cast<NodeItem*>(mItems.value(q(n.id)));
        if (!item)
            continue;
        const Node* next = plan ? plan->topology.findNode(n.id) : nullptr;
        QString change;
        const bool removed = plan && !next;
        if (next && (next->sharing != n.sharing || next->gpuSharing != n.gpuSharing))
            change = q(gp::describeSharing(next->sharing)) + (next->gpuSharing.empty() ? QString() : tr(" (per GPU)"));
        item->setPreview(change, removed);
        if (removed || !change.isEmpty())
            marked << q(n.id);
    }
    return marked;
}

QRectF CanvasScene::jobsBounds(const QStringList& jobIds) const
{
    QRectF bounds;
    for (const QString& id : jobIds)
        if (auto it = mJobGpus.find(id.toStdString()); it != mJobGpus.end())
            for (const auto& [node, gpus] : it->second)
                if (const QGraphicsItem* item = mItems.value(q(node)))
                    bounds |= item->sceneBoundingRect();
    return bounds;
}

void CanvasScene::highlightJobs(const QStringList& jobIds)
{
    mHighlightedJobs = jobIds;
    std::map<std::string, std::set<int>> gpus; // node -> GPUs
    for (const QString& id : jobIds)
        if (auto it = mJobGpus.find(id.toStdString()); it != mJobGpus.end())
            for (const auto& [node, indices] : it->second)
                gpus[node].insert(indices.begin(), indices.end());
    for (auto it = mItems.cbegin(); it != mItems.cend(); ++it)
        if (auto* n = qgraphicsitem_cast<NodeItem*>(it.value())) {
            const auto found = gpus.find(it.key().toStdString());
            n->setHighlightedGpus(found == gpus.end() ? std::set<int>{} : found->second);
        }
    // The links the jobs' traffic can take: those of their nodes, and when they span more
    // than one switch, those switches' links upwards.
    std::set<const QGraphicsItem*> nodes, switches;
    for (const auto& [node, indices] : gpus)
        if (QGraphicsItem* item = mItems.value(q(node)))
            nodes.insert(item);
    for (LinkItem* l : std::as_const(mLinks)) {
        if (nodes.count(l->from()))
            switches.insert(l->to());
        if (nodes.count(l->to()))
            switches.insert(l->from());
    }
    for (const QGraphicsItem* n : nodes)
        switches.erase(n);
    const bool spans = switches.size() > 1;
    for (LinkItem* l : std::as_const(mLinks)) {
        const bool onNode = nodes.count(l->from()) || nodes.count(l->to());
        const bool upward = spans && !onNode && (switches.count(l->from()) || switches.count(l->to()));
        l->setHighlighted(onNode || upward);
    }
    updateLinkVisibility();
}

} // namespace gp::ui
