// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// What a person reads names things as they know them (issue 36): GPUs, price lists, node
// templates, jobs and nodes by their display names and sharing modes in words, not by catalog
// ids, job ids or JSON names — in `summary` and `evaluate` text, the report, the workbench's
// warnings and the sizing's refusals. The JSON outputs keep the ids (a contract), checked here
// beside the words.
#include "clirunner.h"
#include "testsupport.h"
#include "ui/edit/workloadspanel.h"
#include "ui/figures/slidedeck.h"
#include "ui/results/plansummary.h"
#include "windowfixture.h"

#include "calc/evaluate.h"
#include "io/scenarioreader.h"
#include "model/scenariodiff.h"
#include "sim/planresults.h"
#include "study/sizing.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace gp;
using gp::test::cli;

namespace {

QString sampleFile(int index) { return test::sampleFiles().at(index); }

QString pdfPlainText(const QString& pdf)
{
    QProcess p;
    p.start("pdftotext", {pdf, "-"});
    p.waitForFinished(60000);
    return QString::fromUtf8(p.readAllStandardOutput()).simplified();
}

Scenario readSample(int index)
{
    auto r = io::readScenarioFile(sampleFile(index), test::bundledCatalog());
    if (!r.ok())
        qFatal("sample %d does not load", index);
    return *r.value;
}

} // namespace

class TestUserWording : public QObject
{
    Q_OBJECT

    QTemporaryDir mHome;

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    /// `summary`: GPUs by the catalog's names, sharing modes in words; --json keeps the ids.
    void summaryNamesGpusAndSharingModes()
    {
        const test::Run text = cli({"summary", sampleFile(0), sampleFile(1)}, mHome.path());
        QCOMPARE(text.code, 0);
        QVERIFY2(text.out.contains("GPUs       64 (64 × H100 SXM 80GB)"), qPrintable(text.out));
        QVERIFY2(text.out.contains("sharing    48 Bare metal, 8 Passthrough, 8 MIG"), qPrintable(text.out));
        QVERIFY2(text.out.contains("8 × L40S 48GB") && text.out.contains("8 Time-slicing"), qPrintable(text.out));
        for (const char* raw : {"h100-80gb", "l40s-48gb", "exclusive", "time_slicing"})
            QVERIFY2(!text.out.contains(raw), raw);
        const test::Run json = cli({"summary", sampleFile(0), "--json"}, mHome.path());
        const QJsonObject o = QJsonDocument::fromJson(json.out.toUtf8()).array().at(0).toObject();
        QCOMPARE(o.value("gpus_by_model").toObject().value("h100-80gb").toInt(), 64);
        QCOMPARE(o.value("gpus_by_sharing_mode").toObject().value("exclusive").toInt(), 48);
    }

    /// `evaluate` text: jobs and their noisiest neighbours by name, sharing modes in words; the
    /// JSON keeps the ids.
    void evaluateNamesJobsAndModes()
    {
        const test::Run text = cli({"evaluate", sampleFile(1)}, mHome.path());
        QCOMPARE(text.code, 0);
        QVERIFY2(text.out.contains("\n  Notebook evaluation server ") && text.out.contains("\n  Mixtral 8x7B API "),
                 qPrintable(text.out));
        QVERIFY2(text.out.contains("noisiest neighbour Notebook evaluation server (+"), qPrintable(text.out));
        QVERIFY2(!text.out.contains("notebooks-eval") && !text.out.contains("\n  mixtral "), qPrintable(text.out));
        const test::Run alternatives = cli({"evaluate", sampleFile(0), "--alternatives"}, mHome.path());
        QVERIFY2(alternatives.out.contains("\n  Time-slicing ") && !alternatives.out.contains("time_slicing"),
                 qPrintable(alternatives.out));
        const test::Run json = cli({"evaluate", sampleFile(1), "--json"}, mHome.path());
        bool neighbourById = false;
        for (const auto& j : QJsonDocument::fromJson(json.out.toUtf8()).object().value("jobs").toArray())
            neighbourById |= j.toObject().value("noisiest_neighbour").toString() == "notebooks-eval";
        QVERIFY(neighbourById);
    }

    /// The report names the price list as the catalog does and where the trials ran in words.
    void reportNamesThePricesAndTheBackend()
    {
        const QString pdf = mHome.filePath("report.pdf");
        const test::Run r = cli({"report", sampleFile(0), "-o", pdf}, mHome.path());
        QCOMPARE(r.code, 0);
        QProcess p;
        p.start("pdftotext", {pdf, "-"});
        QVERIFY(p.waitForFinished(60000));
        const QString text = QString::fromUtf8(p.readAllStandardOutput()).simplified();
        QVERIFY2(text.contains("Prices: Lambda Cloud on-demand 8-GPU instances (2025)"), qPrintable(text));
        QVERIFY2(!text.contains("lambda-on-demand-2025"), qPrintable(text));
        QVERIFY2(text.contains("trials (CPU)") || text.contains("trials (CUDA on"), qPrintable(text));
        QVERIFY2(!text.contains("(cpu)"), qPrintable(text));
    }

    /// The slides (one plan, and a comparison with the plan on other prices) say where the trials
    /// ran in words, and what differs names the price lists as the catalog does.
    void slidesNameWhatTheyShow()
    {
        const Scenario s = readSample(1);
        const auto one = sim::computePlanResults(s, test::bundledCatalog());
        QVERIFY(one);
        const QString deck = mHome.filePath("slides.pdf");
        QVERIFY(ui::SlideDeck(*one, test::bundledCatalog(), {}).writePdf(deck));
        const QString text = pdfPlainText(deck);
        QVERIFY2(text.contains("1,000 trials (CPU)") || text.contains("1,000 trials (CUDA on"), qPrintable(text));
        QVERIFY2(!text.contains("(cpu)") && !text.contains("aws-on-demand-2024"), qPrintable(text));
        Scenario other = s;
        other.pricing.preset = "lambda-on-demand-2025";
        const auto two = sim::computePlanResults(other, test::bundledCatalog());
        QVERIFY(two);
        const QString compared = mHome.filePath("compared.pdf");
        QVERIFY(ui::SlideDeck(
                    {std::make_shared<const sim::PlanResults>(*one), std::make_shared<const sim::PlanResults>(*two)},
                    test::bundledCatalog(), {})
                    .writePdf(compared));
        const QString both = pdfPlainText(compared);
        QVERIFY2(both.contains("price preset: AWS EC2 on-demand, us-east-1 (2024) → Lambda Cloud on-demand 8-GPU "
                               "instances (2025)"),
                 qPrintable(both));
        QVERIFY2(!both.contains("aws-on-demand-2024") && !both.contains("lambda-on-demand-2025"), qPrintable(both));
    }

    /// What differs, as the compare view, the comparison slides, the report's recommended page and
    /// `compare`'s text show it: nodes, jobs, templates and GPUs by name; `compare --json` keeps
    /// the ids (a contract).
    void whatDiffersNamesThings()
    {
        const Scenario a = readSample(1);
        Scenario b = a;
        b.topology.nodes.front().gpuId = "a100-40gb";
        b.findJob("notebooks")->parallelism.dp = 2;
        b.findJob("mixtral")->pin = Pin{a.topology.nodes.back().id, std::nullopt, std::nullopt};
        b.placementPolicy = PlacementPolicy::BestFit;
        std::vector<std::string> lines = diffScenarios(a, b, &test::bundledCatalog());
        QStringList all;
        for (const std::string& l : lines)
            all << QString::fromStdString(l);
        const QString named = all.join('\n');
        QVERIFY2(named.contains("node vgpu-a100 GPUs: 8 x A100 80GB SXM → 8 x A100 40GB SXM"), qPrintable(named));
        QVERIFY2(named.contains("job Notebook fine-tunes parallelism: "), qPrintable(named));
        QVERIFY2(named.contains("job Mixtral 8x7B API pin: none → mig-a100"), qPrintable(named));
        QVERIFY2(named.contains("placement policy: Topology-aware → Best fit"), qPrintable(named));
        for (const char* raw : {"node-001", "a100-80gb", "notebooks ", "mixtral ", "topology_aware", "->"})
            QVERIFY2(!named.contains(raw), raw);
        lines = diffScenarios(a, b);
        QVERIFY(std::find(lines.begin(), lines.end(), "node node-001 GPUs: 8 x a100-80gb -> 8 x a100-40gb") !=
                lines.end());
    }

    /// Workloads: the Model column names the model as the catalog does, and the job's memory line
    /// begins with the job's name, not its id; the penalty line names the noisiest neighbour.
    void workloadsNameModelsAndJobs()
    {
        auto w = test::makeWindow(mHome.filePath("lib.sqlite"));
        w->resize(1366, 768);
        w->show();
        w->files()->openFirst();
        QVERIFY(QTest::qWaitForWindowExposed(w.get()));
        ui::WorkloadsPanel* workloads = w->workloads();
        QTRY_COMPARE(workloads->rowCount(), 5);
        QTableWidget* table = workloads->table();
        int chat = -1;
        for (int r = 0; r < table->rowCount(); ++r)
            if (table->item(r, 1)->data(Qt::UserRole).toString() == "chat-8b")
                chat = r;
        QVERIFY(chat >= 0);
        QCOMPARE(table->item(chat, 3)->text(), QString("Llama 3 8B"));
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualItemRect(table->item(chat, 1)).center());
        QVERIFY2(workloads->detailText().startsWith("<b>Llama 3 8B chat API</b> — per GPU"),
                 qPrintable(workloads->detailText()));
        QVERIFY(!workloads->detailText().contains("chat-8b"));
    }

    /// A job pinned where it does not fit: the reason, and the workbench's warning, name the node
    /// as the canvas shows it ("mig-a100"), not by its id ("node-004").
    void aPinnedJobsReasonNamesTheNode()
    {
        Scenario s = readSample(1);
        const Node* mig = nullptr;
        for (const Node& n : s.topology.nodes)
            if (n.name == "mig-a100")
                mig = &n;
        QVERIFY(mig && mig->id != mig->name);
        Job* big = s.findJob("mixtral");
        QVERIFY(big);
        big->pin = Pin{mig->id, 0, std::nullopt};
        const calc::Evaluation ev = calc::evaluate(s, test::bundledCatalog());
        const calc::JobResult* r = nullptr;
        for (const calc::JobResult& j : ev.jobs)
            if (j.id == "mixtral")
                r = &j;
        QVERIFY(r && !r->placed);
        QVERIFY2(r->reason.find("pinned to mig-a100 GPU 0") != std::string::npos, r->reason.c_str());
        QVERIFY2(r->reason.find(mig->id) == std::string::npos, r->reason.c_str());
        const QString warnings = ui::planWarnings(s, ev).join('\n');
        QVERIFY2(warnings.contains("Mixtral 8x7B API is not placed: pinned to mig-a100"), qPrintable(warnings));
    }

    /// The sizing says a GPU without a price, and a template that hosts nothing, by their names
    /// (the template's id beside it, for --template).
    void sizingNamesGpusAndTemplates()
    {
        const Scenario s = readSample(0);
        study::SizingRequest only;
        only.templates = {"pcie-l40s-8"};
        const Result<study::SizingResult> none = study::sizeCluster(s, test::bundledCatalog(), only);
        QVERIFY(!none.ok());
        const std::string why = none.errorText();
        QVERIFY2(why.find("8x L40S server (pcie-l40s-8): ") != std::string::npos, why.c_str());
        study::SizingRequest two;
        two.templates = {"dgx-h100", "mi300x-8"};
        const Result<study::SizingResult> r = study::sizeCluster(s, test::bundledCatalog(), two);
        QVERIFY2(r.ok(), r.errorText().c_str());
        const study::SizedTemplate& unpriced = r->candidates.at(1); // the pricing has no MI300X
        QVERIFY(unpriced.nodes && !unpriced.costPerMonthUsd);
        QCOMPARE(unpriced.why, std::string("no price for the MI300X 192GB in the scenario's pricing (Lambda Cloud "
                                           "on-demand 8-GPU instances (2025))"));
    }
};

QTEST_MAIN(TestUserWording)
#include "tst_userwording.moc"
