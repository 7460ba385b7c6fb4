// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// An explanation lists the assumptions that feed its number, and only those (issue 36, item 5):
// every penalty and waste explanation listed the same seven keys — time slices, MPS,
// virtualisation I/O — even for a MIG job, and the cost named no price. evaluate() now records
// what it read for each job; the explanations, the explain window's *Apply Assumptions* and
// `evaluate --json` show that.
#include "clirunner.h"
#include "windowfixture.h"

#include "calc/evaluate.h"
#include "calc/evaluateparams.h"
#include "calc/kpiexplain.h"
#include "document/plansession.h"
#include "io/scenarioreader.h"
#include "model/assumptions.h"
#include "ui/results/explaindialog.h"
#include "ui/results/kpicards.h"

#include <QDoubleSpinBox>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QPushButton>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <map>
#include <set>

using namespace gp;
using namespace gp::calc;

namespace {

using Keys = std::vector<std::string>;

Scenario sample(const char* file)
{
    const auto read = io::readScenarioFile(QDir(test::dataDir()).absoluteFilePath(QString("samples/") + file),
                                           test::bundledCatalog());
    if (!read.ok())
        qFatal("cannot read %s", file);
    return *read.value;
}

const JobResult& jobOf(const Evaluation& ev, const std::string& id)
{
    const auto it = std::find_if(ev.jobs.begin(), ev.jobs.end(), [&](const JobResult& j) { return j.id == id; });
    if (it == ev.jobs.end())
        qFatal("no job %s", id.c_str());
    return *it;
}

bool has(const Keys& keys, const std::string& key) { return std::find(keys.begin(), keys.end(), key) != keys.end(); }

/// The keys of the sharing modes' interference: time-slicing, MPS, a VM's I/O.
QString sharingKeysIn(const Keys& keys)
{
    QStringList found;
    for (const std::string& k : keys)
        if (k.rfind("time_slice", 0) == 0 || k.rfind("mps_", 0) == 0 || k.rfind("virtualization_io", 0) == 0)
            found << QString::fromStdString(k);
    return found.join(", ");
}

QString joined(const Keys& keys)
{
    QStringList out;
    for (const std::string& k : keys)
        out << QString::fromStdString(k);
    return out.join(", ");
}

/// A serving engine's knobs, in the registry's order.
const Keys kServingKeys = {"runtime_overhead_gib", "inference_prefill_chunk_tokens", "chunked_prefill",
                           "serving_memory_fraction", "kv_block_tokens"};

} // namespace

class TestExplainAssumptions : public QObject
{
    Q_OBJECT

    QTemporaryDir mTmp;

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    /// interferenceOf records, per sharing mode, what it read: MIG and bare metal nothing,
    /// time slices only when turns alternate, a VM's I/O for vGPU and passthrough, MPS's
    /// contention with a memory-bound neighbour.
    void eachSharingModeRecordsWhatItRead()
    {
        const InterferenceParams p = InterferenceParams::from({}, GpuSpec{});
        const ResourceMix mix{0.5, 0.4, 0.1, 0.0};
        const std::vector<CoTenant> neighbour = {{1, mix, 1.0, 0.5}};
        const auto readOn = [&](SharingMode mode, const std::vector<CoTenant>& others) {
            Slot slot;
            slot.mode = mode;
            slot.gpuFraction = slot.smShare = slot.bandwidthShare = mode == SharingMode::Mig ? 3.0 / 7.0 : 0.5;
            return interferenceOf(slot, mix, others, p).assumptionsRead.keys();
        };
        const Keys timeSlice = {"time_slice_switch_us", "time_slice_cache_refill_us", "time_slice_ms"};
        QCOMPARE(readOn(SharingMode::Exclusive, {}), Keys{});
        QCOMPARE(readOn(SharingMode::Mig, neighbour), Keys{});
        QCOMPARE(readOn(SharingMode::TimeSlicing, {}), Keys{}); // alone: no turn is ever switched
        QCOMPARE(readOn(SharingMode::TimeSlicing, neighbour), timeSlice);
        QCOMPARE(readOn(SharingMode::Vgpu, neighbour), (Keys{"time_slice_switch_us", "time_slice_cache_refill_us",
                                                             "virtualization_io_overhead_pct", "time_slice_ms"}));
        QCOMPARE(readOn(SharingMode::Passthrough, {}), Keys{"virtualization_io_overhead_pct"});
        QCOMPARE(readOn(SharingMode::Mps, neighbour), Keys{"mps_memory_contention"});
    }

    /// Sample 01's chat API serves from MIG instances: its penalty is its SMs' and memory
    /// slices' share and the static loss, and the knobs of its serving engine; no time slice,
    /// MPS or VM key reaches it.
    void aMigJobListsNoTimeSliceOrMpsKnob()
    {
        const Scenario s = sample("01-dgx-h100-three-tenants.json");
        const Evaluation ev = evaluate(s, test::bundledCatalog());
        const JobResult& chat = jobOf(ev, "chat-8b");
        QVERIFY(chat.placed);
        for (const UnitLocation& u : chat.placement)
            QVERIFY2(u.node == "node-007" && u.slot.find("g.") != std::string::npos, u.slot.c_str()); // MIG
        const KpiExplanation x = explainJob("penalty", "chat-8b", s, test::bundledCatalog(), ev);
        QVERIFY2(sharingKeysIn(x.assumptions).isEmpty(), qPrintable(sharingKeysIn(x.assumptions)));
        QCOMPARE(x.assumptions, kServingKeys);
        // Max penalty is this job's: it lists what this job read.
        const KpiExplanation max = explainKpi("max_penalty", s, test::bundledCatalog(), ev);
        QCOMPARE(max.jobIds, Keys{"chat-8b"});
        QCOMPARE(max.assumptions, kServingKeys);
        // The 70B pre-training spans nodes, one of them passthrough: the VM's I/O cost and the
        // collectives' keys, still no time slice or MPS.
        const Keys frontier = explainJob("penalty", "frontier-70b", s, test::bundledCatalog(), ev).assumptions;
        for (const char* key : {"virtualization_io_overhead_pct", "link_efficiency", "comm_overlap", "tp_comm_overlap"})
            QVERIFY2(has(frontier, key), qPrintable(joined(frontier)));
        QVERIFY2(!has(frontier, "time_slice_ms") && !has(frontier, "mps_memory_contention"),
                 qPrintable(joined(frontier)));
        // The plan's mean is the union over its placed jobs: neither a time slice nor MPS.
        const Keys mean = explainKpi("mean_penalty", s, test::bundledCatalog(), ev).assumptions;
        QVERIFY2(has(mean, "virtualization_io_overhead_pct") && has(mean, "kv_block_tokens"), qPrintable(joined(mean)));
        for (const char* key :
             {"time_slice_ms", "time_slice_switch_us", "time_slice_cache_refill_us", "mps_memory_contention"})
            QVERIFY2(!has(mean, key), qPrintable(joined(mean)));
    }

    /// Sample 02's notebooks share an L40S by time-slicing: the time slice and the switch are
    /// their knobs; the MPS clients' is the memory contention.
    void aTimeSlicedJobListsTheTimeSlice()
    {
        const Scenario s = sample("02-mixed-sharing-lab.json");
        const Evaluation ev = evaluate(s, test::bundledCatalog());
        const Keys notebooks = explainJob("penalty", "notebooks", s, test::bundledCatalog(), ev).assumptions;
        QCOMPARE(jobOf(ev, "notebooks").placement.front().slot, std::string("replica 0"));
        for (const char* key : {"time_slice_ms", "time_slice_switch_us", "time_slice_cache_refill_us"})
            QVERIFY2(has(notebooks, key), qPrintable(joined(notebooks)));
        QVERIFY2(!has(notebooks, "mps_memory_contention") && !has(notebooks, "virtualization_io_overhead_pct") &&
                     !has(notebooks, "kv_block_tokens"),
                 qPrintable(joined(notebooks)));
        // Its serving neighbour waits for turns too, and has its engine's knobs.
        const Keys eval = explainJob("penalty", "notebooks-eval", s, test::bundledCatalog(), ev).assumptions;
        QVERIFY2(has(eval, "time_slice_ms") && has(eval, "kv_block_tokens"), qPrintable(joined(eval)));
        const Keys embed = explainJob("penalty", "embed", s, test::bundledCatalog(), ev).assumptions;
        QVERIFY2(has(embed, "mps_memory_contention"), qPrintable(joined(embed)));
        QVERIFY2(!has(embed, "time_slice_ms"), qPrintable(joined(embed)));
    }

    /// A plan on bare metal lists no sharing key for any figure made of its jobs' penalties.
    void aBareMetalPlanListsNoSharingKey()
    {
        const Scenario s = sample("03-fabric-64-node-infiniband.json");
        for (const Node& n : s.topology.nodes)
            QVERIFY(n.sharingOf(0).mode == SharingMode::Exclusive);
        const Evaluation ev = evaluate(s, test::bundledCatalog());
        for (const char* kpi : {"mean_penalty", "max_penalty", "compute_utilization", "waste_per_month_usd",
                                "sla_violations", "vram_utilization"}) {
            const KpiExplanation x = explainKpi(kpi, s, test::bundledCatalog(), ev);
            QVERIFY2(sharingKeysIn(x.assumptions).isEmpty(), qPrintable(kpi + (": " + sharingKeysIn(x.assumptions))));
        }
        // Its training jobs span nodes: their collectives' keys feed the step.
        const Keys mean = explainKpi("mean_penalty", s, test::bundledCatalog(), ev).assumptions;
        QCOMPARE(mean, (Keys{"comm_overlap", "tp_comm_overlap", "link_efficiency"}));
        // Training jobs only: no serving knob in their memory.
        QCOMPARE(explainKpi("vram_utilization", s, test::bundledCatalog(), ev).assumptions,
                 Keys{"runtime_overhead_gib"});
    }

    /// A job that does not fit is explained by what decided that, its memory: the Unplaced jobs
    /// card names it and the memory knobs (it named nothing: its branch was shadowed by an empty
    /// copy of itself, so the card did not open).
    void unplacedJobsNameTheirMemoryKnobs()
    {
        Scenario s = sample("01-dgx-h100-three-tenants.json");
        for (Tenant& t : s.tenants)
            for (Job& j : t.jobs)
                if (j.id == "acme-lora")
                    j.parallelism.dp = 200; // 200 GPUs: more than the cluster has
        const Evaluation ev = evaluate(s, test::bundledCatalog());
        QVERIFY(!jobOf(ev, "acme-lora").placed);
        const KpiExplanation x = explainKpi("unplaced_jobs", s, test::bundledCatalog(), ev);
        QVERIFY2(x.formula.rfind("jobs the placement policy could not place whole = 1", 0) == 0, x.formula.c_str());
        QCOMPARE(x.jobIds, Keys{"acme-lora"});
        QCOMPARE(x.assumptions, Keys{"runtime_overhead_gib"}); // a training job's memory
        QCOMPARE(explainJob("penalty", "acme-lora", s, test::bundledCatalog(), ev).assumptions,
                 Keys{"runtime_overhead_gib"});
    }

    /// A GPU model whose catalog entry calibrates the switch: that value is the catalog's, so the
    /// scenario's switch time is no knob of the job; the time slice and the refill still are.
    void aCalibratedGpuKeepsItsKeyOut()
    {
        Catalog catalog = test::bundledCatalog();
        for (GpuSpec& g : catalog.gpus)
            if (g.id == "l40s-48gb")
                g.sharingCalibration["time_slice_switch_us"] = 50.0;
        const Scenario s = sample("02-mixed-sharing-lab.json");
        const Evaluation ev = evaluate(s, catalog);
        const Keys keys = explainJob("penalty", "notebooks", s, catalog, ev).assumptions;
        QVERIFY2(!has(keys, "time_slice_switch_us"), qPrintable(joined(keys)));
        QVERIFY2(has(keys, "time_slice_ms") && has(keys, "time_slice_cache_refill_us"), qPrintable(joined(keys)));
    }

    /// The cost names the price per GPU model it used and where it comes from: the catalog's
    /// price preset, or the scenario's own price.
    void theCostNamesTheGpuPrices()
    {
        {
            const Scenario s = sample("01-dgx-h100-three-tenants.json");
            const Evaluation ev = evaluate(s, test::bundledCatalog());
            for (const char* kpi : {"cost_per_month_usd", "waste_per_month_usd"}) {
                const KpiExplanation x = explainKpi(kpi, s, test::bundledCatalog(), ev);
                QCOMPARE(x.prices.size(), std::size_t{1});
                QCOMPARE(x.prices.front().gpuId, std::string("h100-80gb"));
                QCOMPARE(*x.prices.front().price.usd, 2.99);
                const std::string text = priceText(x.prices.front());
                QVERIFY2(text.find("$2.99/GPU-hour") != std::string::npos &&
                             text.find("price preset Lambda Cloud") != std::string::npos,
                         text.c_str());
            }
            // The bill is GPUs × price: no registered assumption feeds it.
            QVERIFY(explainKpi("cost_per_month_usd", s, test::bundledCatalog(), ev).assumptions.empty());
        }
        const Scenario s = sample("02-mixed-sharing-lab.json");
        const Evaluation ev = evaluate(s, test::bundledCatalog());
        const KpiExplanation cost = explainKpi("cost_per_month_usd", s, test::bundledCatalog(), ev);
        std::map<std::string, PriceUsed> byGpu;
        for (const PriceUsed& p : cost.prices)
            byGpu[p.gpuId] = p;
        QCOMPARE(byGpu.size(), std::size_t{4});
        QCOMPARE(*byGpu.at("h100-pcie-80gb").price.usd, 2.49); // the scenario's own price wins over the preset
        QVERIFY2(byGpu.at("h100-pcie-80gb").price.source.find("this scenario's price") != std::string::npos,
                 byGpu.at("h100-pcie-80gb").price.source.c_str());
        QCOMPARE(*byGpu.at("a100-80gb").price.usd, 5.12);
        QVERIFY(byGpu.at("a100-80gb").price.source.find("AWS EC2 on-demand") != std::string::npos);
        // A job's cost names the price of its GPU model: the MPS clients run on the H100 PCIe.
        const KpiExplanation embed = explainJob("cost", "embed", s, test::bundledCatalog(), ev);
        QCOMPARE(embed.prices.size(), std::size_t{1});
        QCOMPARE(embed.prices.front().gpuId, std::string("h100-pcie-80gb"));
        QVERIFY(embed.assumptions.empty());
    }

    /// What a job's record leaves out does not move its figures: on every sample, each key
    /// evaluate reads (but the memory's, which may move placement) nudged in turn leaves the step,
    /// the bare-metal step and the penalty of every job alone on its GPUs that did not read it
    /// exactly as they were. And a key it did read moves something of some job.
    void whatARecordLeavesOutDoesNotMoveItsFigures()
    {
        const Keys memory = assumptionsReadBy(EvaluatedFigure::Memory);
        int checked = 0; // (job, key) pairs left out and checked unmoved
        for (const char* file :
             {"01-dgx-h100-three-tenants.json", "02-mixed-sharing-lab.json", "03-fabric-64-node-infiniband.json"}) {
            const Scenario s = sample(file);
            const Evaluation base = evaluate(s, test::bundledCatalog());
            // Who shares a GPU with another job (then what the neighbour read reaches it too).
            std::map<std::pair<std::string, int>, std::set<std::string>> onGpu;
            for (const JobResult& j : base.jobs)
                for (const UnitLocation& u : j.placement)
                    onGpu[{u.node, u.gpu}].insert(j.id);
            const auto alone = [&](const JobResult& j) {
                return std::all_of(j.placement.begin(), j.placement.end(), [&](const UnitLocation& u) {
                    return onGpu[{u.node, u.gpu}].size() == 1;
                });
            };
            for (const std::string& key : assumptionsRead()) {
                if (has(memory, key))
                    continue;
                const Assumption& a = *findAssumption(key);
                Scenario nudged = s;
                const double v = assumptionValue(s.assumptions, key);
                nudged.assumptions[key] = key == "chunked_prefill" ? 1.0 - v
                                          : v * 1.25 <= a.maxValue ? (v > 0 ? v * 1.25 : a.maxValue / 2)
                                                                   : (v + a.minValue) / 2;
                const Evaluation ev = evaluate(nudged, test::bundledCatalog());
                for (std::size_t i = 0; i < ev.jobs.size(); ++i) {
                    const JobResult& was = base.jobs[i];
                    const JobResult& now = ev.jobs[i];
                    QCOMPARE(now.id, was.id);
                    if (!was.placed || !alone(was) || was.performanceAssumptions.contains(key))
                        continue;
                    QVERIFY2(now.perf.stepTimeS == was.perf.stepTimeS &&
                                 now.bareMetal.stepTimeS == was.bareMetal.stepTimeS && now.penalty == was.penalty,
                             qPrintable(QString("%1: %2 moved by %3, which its record leaves out")
                                            .arg(file, QString::fromStdString(was.id), QString::fromStdString(key))));
                    ++checked;
                }
            }
        }
        QVERIFY2(checked >= 50, qPrintable(QString::number(checked)));
        // The converse, once: the time slice moves the time-sliced notebooks' penalty.
        const Scenario s = sample("02-mixed-sharing-lab.json");
        Scenario longer = s;
        longer.assumptions["time_slice_ms"] = 8.0;
        QVERIFY(jobOf(evaluate(longer, test::bundledCatalog()), "notebooks").penalty !=
                jobOf(evaluate(s, test::bundledCatalog()), "notebooks").penalty);
    }

    /// `evaluate --json` says what each job's figures read.
    void evaluateJsonSaysWhatEachJobRead()
    {
        const test::Run r = test::cli(
            {"evaluate", QDir(test::dataDir()).absoluteFilePath("samples/01-dgx-h100-three-tenants.json"), "--json"},
            mTmp.path());
        QVERIFY2(r.code == 0, qPrintable(r.err));
        bool found = false;
        for (const QJsonValue& v : QJsonDocument::fromJson(r.out.toUtf8()).object().value("jobs").toArray()) {
            const QJsonObject j = v.toObject();
            if (j.value("id").toString() != "chat-8b")
                continue;
            found = true;
            const QJsonObject read = j.value("assumptions_read").toObject();
            QCOMPARE(read.value("performance").toArray(),
                     QJsonArray({"runtime_overhead_gib", "inference_prefill_chunk_tokens", "chunked_prefill",
                                 "serving_memory_fraction", "kv_block_tokens"}));
            QCOMPARE(read.value("memory").toArray(),
                     QJsonArray({"runtime_overhead_gib", "inference_prefill_chunk_tokens", "serving_memory_fraction"}));
        }
        QVERIFY(found);
    }

    /// The explain window, opened as a user opens it (a click on a KPI card), offers to edit
    /// exactly the assumptions its explanation lists — by label, value and unit, the key beside
    /// — and the cost card's window names the price instead of offering a knob.
    void theExplainWindowOffersOnlyTheKnobsThatChangeIt()
    {
        auto w = test::openSampleAtOneToOne(mTmp.filePath("lib.sqlite"), "node-004");
        QTRY_VERIFY_WITH_TIMEOUT(w->session()->latest() && !w->session()->busy(), 20000);
        const auto results = w->session()->latest();
        const auto open = [&](const char* card) -> ui::ExplainDialog* {
            QWidget* c = w->kpiCards()->findChild<QWidget*>(QString("kpi-") + card);
            if (!c)
                return nullptr;
            QTest::mouseClick(c, Qt::LeftButton, {}, c->rect().center());
            auto* dialog = w->findChild<ui::ExplainDialog*>("explainDialog");
            return dialog && dialog->isVisible() ? dialog : nullptr;
        };
        const auto knobsOf = [](const QDialog* dialog) {
            Keys keys;
            for (const QDoubleSpinBox* field : dialog->findChildren<QDoubleSpinBox*>())
                if (field->objectName().startsWith("assumption-"))
                    keys.push_back(field->objectName().mid(QString("assumption-").size()).toStdString());
            std::sort(keys.begin(), keys.end());
            return keys;
        };
        const auto sorted = [](Keys keys) {
            std::sort(keys.begin(), keys.end());
            return keys;
        };
        const auto close = [&](QDialog* dialog) {
            dialog->close(); // deletes itself: the next click opens a new window
            return QTest::qWaitFor([&] { return !w->findChild<QDialog*>("explainDialog"); });
        };

        for (const char* kpi : {"max_penalty", "mean_penalty"}) {
            ui::ExplainDialog* dialog = open(kpi);
            QVERIFY2(dialog, kpi);
            const KpiExplanation x = explainKpi(kpi, *results->scenario, test::bundledCatalog(), *results->evaluation);
            QCOMPARE(knobsOf(dialog), sorted(x.assumptions));
            QVERIFY(!dialog->findChild<QDoubleSpinBox*>("assumption-time_slice_ms"));
            QVERIFY(!dialog->findChild<QDoubleSpinBox*>("assumption-mps_memory_contention"));
            if (std::string(kpi) == "max_penalty")
                QCOMPARE(knobsOf(dialog), sorted(kServingKeys));
            // Each knob by its label, value and unit; the key as secondary text.
            const QLabel* label = dialog->findChild<QLabel*>("assumptionLabel-kv_block_tokens");
            QVERIFY(label);
            QVERIFY2(label->text().startsWith("KV-cache page size") && label->text().contains("kv_block_tokens"),
                     qPrintable(label->text()));
            const QDoubleSpinBox* page = dialog->findChild<QDoubleSpinBox*>("assumption-kv_block_tokens");
            QCOMPARE(page->value(), 16.0);
            QVERIFY2(page->text().endsWith(" tokens"), qPrintable(page->text()));
            QVERIFY(dialog->findChild<QPushButton*>("explainApply"));
            QVERIFY(close(dialog));
        }

        ui::ExplainDialog* cost = open("cost_per_month_usd");
        QVERIFY(cost);
        QVERIFY(knobsOf(cost).empty());
        QVERIFY(!cost->findChild<QPushButton*>("explainApply"));
        const QLabel* prices = cost->findChild<QLabel*>("explainPrices");
        QVERIFY(prices);
        QVERIFY2(prices->text().contains("$2.99/GPU-hour") && prices->text().contains("Lambda Cloud"),
                 qPrintable(prices->text()));
        QVERIFY(close(cost));
    }
};

QTEST_MAIN(TestExplainAssumptions)
#include "tst_explainassumptions.moc"
