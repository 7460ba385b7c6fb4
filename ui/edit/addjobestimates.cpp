// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// What Add Job says about the job before it is added: the memory it needs per GPU against the
// cluster's largest GPU, and for a service what it serves at the rate asked (issue 36); and the
// latency objectives it offers its tenant.
#include "addjobdialog.h"

#include "calc/evaluate.h"
#include "document/commands.h"
#include "model/format.h"
#include "model/serviceobjectives.h"
#include "model/units.h"

#include <QComboBox>
#include <QLabel>

#include <algorithm>
#include <set>

namespace gp::ui {

const Job* AddJobDialog::jobIn(const Scenario& after) const
{
    std::set<std::string> before;
    for (const Tenant& t : mScenario.tenants)
        for (const Job& j : t.jobs)
            before.insert(j.id);
    const Job* job = nullptr;
    for (const Tenant& t : after.tenants)
        for (const Job& j : t.jobs)
            if (mEditJob.empty() ? !before.count(j.id) : j.id == mEditJob)
                job = &j;
    return job;
}

std::optional<QString> AddJobDialog::servingEstimate(const Scenario& after, bool& fits) const
{
    const Job* job = jobIn(after);
    if (!job || job->kind != JobKind::Inference || !job->inference)
        return std::nullopt;
    int gpus = 0;
    for (const Node& n : after.topology.nodes)
        gpus += n.gpuCount;
    if (gpus > kMaxEstimateGpus)
        return std::nullopt;
    const calc::Evaluation ev = calc::evaluate(after, mCatalog);
    for (const calc::JobResult& r : ev.jobs) {
        if (r.id != job->id || !r.placed || !r.serving)
            continue;
        const calc::ServingResult& sv = *r.serving;
        const int cap = job->inference->concurrency;
        if (sv.saturated) {
            fits = false;
            return tr("Saturated at this load: at most %1 requests run at once (the concurrency cap is %2, the KV "
                      "cache holds %3) and it serves %4 req/s of the %5 asked, so the queue grows without bound and "
                      "it meets no objective. Lower the rate, raise the cap, or add replicas (data parallel).")
                .arg(std::min(cap, sv.maxBatch))
                .arg(cap)
                .arg(sv.maxBatch)
                .arg(sv.requestsPerS, 0, 'f', 2)
                .arg(job->inference->requestsPerS, 0, 'g', 4);
        }
        return tr("Serves %1 req/s with about %2 requests running (concurrency cap %3, KV cache room for %4); "
                  "P99 time to first token %5.")
            .arg(sv.requestsPerS, 0, 'f', 2)
            .arg(sv.running, 0, 'f', 0)
            .arg(cap)
            .arg(sv.maxBatch)
            .arg(QString::fromStdString(fmt::latency(sv.ttftP99S)));
    }
    return std::nullopt;
}

std::optional<QString> AddJobDialog::memoryEstimate(const Scenario& after, bool& fits) const
{
    const Job* job = jobIn(after);
    if (!job)
        return std::nullopt;
    const calc::JobMemoryNeed need = calc::jobMemoryNeed(*job, after, mCatalog);
    if (!need.arch)
        return std::nullopt;
    const GpuSpec* largest = nullptr;
    for (const Node& n : after.topology.nodes)
        if (const GpuSpec* g = mCatalog.gpu(n.gpuId); g && (!largest || g->memoryUsableGiB > largest->memoryUsableGiB))
            largest = g;
    const calc::MemoryBreakdown& m = need.memory;
    QString text = tr("Needs about %1 GiB per GPU: model states %2, activations %3, KV cache %4, runtime %5 GiB.")
                       .arg(need.demandBytes / kGiB, 0, 'f', 1)
                       .arg(m.modelStatesBytes() / kGiB, 0, 'f', 1)
                       .arg(m.activationsBytes.value_or(0.0) / kGiB, 0, 'f', 1)
                       .arg(m.kvCacheBytes.value_or(0.0) / kGiB, 0, 'f', 1)
                       .arg(m.runtimeBytes / kGiB, 0, 'f', 1);
    if (!largest)
        return text + " " + tr("The cluster has no GPU yet.");
    fits = need.demandBytes <= largest->memoryUsableGiB * kGiB;
    text += " " + (fits ? tr("It fits one %1 (%2 GiB usable).")
                        : tr("No GPU of this cluster holds it — the largest, %1, has %2 GiB usable — so it will not "
                             "be placed: raise tensor or pipeline parallelism, or shard the optimizer states."))
                      .arg(QString::fromStdString(largest->name))
                      .arg(largest->memoryUsableGiB, 0, 'f', 1);
    return text;
}

namespace {

/// "TTFT P99 ≤ 2.00 s, ITL P99 ≤ 200 ms", or the one that is set.
QString objectivesText(const std::optional<double>& ttftMs, const std::optional<double>& itlMs)
{
    QStringList parts;
    if (ttftMs)
        parts << AddJobDialog::tr("TTFT P99 ≤ %1").arg(QString::fromStdString(fmt::latency(*ttftMs / 1000.0)));
    if (itlMs)
        parts << AddJobDialog::tr("ITL P99 ≤ %1").arg(QString::fromStdString(fmt::latency(*itlMs / 1000.0)));
    return parts.join(", ");
}

} // namespace

void AddJobDialog::fillObjectives()
{
    QSignalBlocker block(mObjectives);
    mObjectives->clear();
    const Tenant* t = mScenario.findTenant(mTenant->currentData().toString().toStdString());
    if (t && (t->sla.ttftP99Ms || t->sla.itlP99Ms))
        mObjectives->addItem(tr("Keep the tenant's: %1").arg(objectivesText(t->sla.ttftP99Ms, t->sla.itlP99Ms)),
                             QStringLiteral("keep"));
    for (const ServiceObjectivePreset& p : kServiceObjectivePresets)
        mObjectives->addItem(tr("%1 — %2 (%3)")
                                 .arg(QString::fromUtf8(p.label.data(), static_cast<qsizetype>(p.label.size())),
                                      objectivesText(p.ttftP99Ms, p.itlP99Ms),
                                      QString::fromUtf8(p.source.data(), static_cast<qsizetype>(p.source.size()))),
                             QString::fromUtf8(p.key.data(), static_cast<qsizetype>(p.key.size())));
    mObjectives->addItem(tr("None — batch work without a latency objective"), QStringLiteral("none"));
    mObjectives->setCurrentIndex(0); // the tenant's own, else Chat
}

std::optional<std::pair<std::optional<double>, std::optional<double>>> AddJobDialog::chosenObjectives() const
{
    const QString key = mObjectives->currentData().toString();
    if (static_cast<JobKind>(mKind->currentData().toInt()) != JobKind::Inference || key == QLatin1String("keep"))
        return std::nullopt;
    if (key == QLatin1String("none"))
        return std::make_pair(std::optional<double>(), std::optional<double>());
    for (const ServiceObjectivePreset& p : kServiceObjectivePresets)
        if (key == QString::fromUtf8(p.key.data(), static_cast<qsizetype>(p.key.size())))
            return std::make_pair(std::optional<double>(p.ttftP99Ms), std::optional<double>(p.itlP99Ms));
    return std::nullopt;
}

Result<document::Edit> AddJobDialog::withObjectives(Result<document::Edit> e) const
{
    const auto objectives = chosenObjectives();
    if (!e.ok() || !objectives)
        return e;
    Scenario after = resultOf(e);
    const Job* job = jobIn(after);
    for (Tenant& t : after.tenants)
        if (job && std::any_of(t.jobs.begin(), t.jobs.end(), [&](const Job& j) { return j.id == job->id; })) {
            if (t.sla.ttftP99Ms == objectives->first && t.sla.itlP99Ms == objectives->second)
                return e; // already so
            t.sla.ttftP99Ms = objectives->first;
            t.sla.itlP99Ms = objectives->second;
            // One edit, one undo step: the job and its tenant's objectives.
            return document::changeScenario(mScenario, mCatalog, after, e.value->text);
        }
    return e;
}

} // namespace gp::ui
