// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// The PDF report (docs/cli.md#report): six pages whose text (read with pdftotext from
// poppler-utils, which the test command installs) names the scenario and its KPIs, each page
// and slide checked by rendering it (pdfcheck.h); the CLI
// writes the same report from a file or a library scenario, and a failed write leaves no file.
#include "calc/evaluate.h"
#include "document/librarygateway.h"
#include "io/clusterconfigwriter.h"
#include "io/scenarioreader.h"
#include "model/limits.h"
#include "testsupport.h"
#include "ui/canvas/canvasscene.h"
#include "ui/figures/planfigures.h"
#include "ui/figures/recommendation.h"
#include "ui/figures/reportwriter.h"
#include "ui/results/presentationwindow.h"

#include <QDomDocument>
#include <QImage>
#include <QKeyEvent>
#include <QLocale>
#include <QPainter>
#include <QPointer>
#include <QProcess>

#include "pdfcheck.h"
#include <QSet>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace gp;

namespace {

/// A plan's results as the workbench computes them (the report and slides draw them).
std::shared_ptr<const sim::PlanResults> resultsOf(const Scenario& s, int trials)
{
    return std::make_shared<const sim::PlanResults>(
        *sim::computePlanResults(s, test::bundledCatalog(), nullptr, 30.0, trials));
}

QString run(const QString& program, const QStringList& args, int* code = nullptr)
{
    QProcess p;
    p.start(program, args);
    p.waitForFinished(180000);
    if (code)
        *code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    return QString::fromUtf8(p.readAllStandardOutput());
}

int pages(const QString& pdf)
{
    for (const QString& line : run("pdfinfo", {pdf}).split('\n'))
        if (line.startsWith("Pages:"))
            return line.section(':', 1).trimmed().toInt();
    return -1;
}

/// The PDF's text, with the typographic ligatures (ﬀ, ﬁ, ﬂ) the fonts use spelled out.
QString text(const QString& pdf)
{
    return run("pdftotext", {"-layout", pdf, "-"})
        .replace(QChar(0xFB00), "ff")
        .replace(QChar(0xFB01), "fi")
        .replace(QChar(0xFB02), "fl")
        .replace(QChar(0xFB03), "ffi")
        .replace(QChar(0xFB04), "ffl");
}

} // namespace

class TestReport : public QObject
{
    Q_OBJECT

    QTemporaryDir mDir;

private Q_SLOTS:
    void reportHasItsPagesAndKpis()
    {
        const Scenario s = *io::readScenarioFile(test::sampleFiles().front(), test::bundledCatalog()).value;
        const QString pdf = mDir.filePath("pod.pdf");
        QVERIFY(ui::writeReport(*resultsOf(s, 200), test::bundledCatalog(), pdf));
        QCOMPARE(pages(pdf), ui::kReportPages);
        const QString t = text(pdf);
        const calc::Kpis k = calc::evaluate(s, test::bundledCatalog()).kpis;
        QVERIFY(t.contains(QString::fromStdString(s.name)));
        QVERIFY(t.contains("Executive summary"));
        QVERIFY2(t.contains("$" + QLocale(QLocale::English).toString(k.costPerMonthUsd, 'f', 0)),
                 qPrintable(t.left(2000)));
        QVERIFY(t.contains(QString::number(k.vramUtilization * 100, 'f', 1) + " %"));
        for (const char* page : {"Topology and placement", "Cost and memory", "Sharing trade-offs",
                                 "Predictability and jobs", "Assumptions"})
            QVERIFY2(t.contains(page), page);
        QVERIFY(t.contains("Llama 3 70B pre-training")); // the jobs table
        QVERIFY(t.contains("P95 completion"));           // the trade-off matrix
        // Pages that can be shown: the sharing-modes legend names every point in full (it read
        // "t… B… P…"), the matrix's row names are not split mid-word ("Performanc / e"), and the
        // topology page is vectors with each node's name (it was one bitmap per node).
        for (const char* entry : {"this scenario", "Bare metal (bare metal)", "Passthrough (passthrough VM)",
                                  "Performance isolation", "Fragmentation"})
            QVERIFY2(t.contains(entry), entry);
        for (const Node& n : s.topology.nodes)
            QVERIFY2(t.contains(QString::fromStdString(n.name)), n.name.c_str());
        QVERIFY2(!run("pdfimages", {"-list", "-f", "2", "-l", "2", pdf}).contains(" image "),
                 "the topology page embeds images");
        const QStringList problems = test::renderingProblems(pdf, true);
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join('\n')));
    }

    /// The report of the 250-node sample, rendered page by page: no text cut short, none off
    /// the page or over other text, nothing cut at a page's edge.
    void bigReportRendersCleanly()
    {
        const Scenario s =
            *io::readScenarioFile(QDir(test::dataDir()).absoluteFilePath("samples/04-cluster-250-node-h100.json"),
                                  test::bundledCatalog())
                 .value;
        const QString pdf = mDir.filePath("big.pdf");
        QVERIFY(ui::writeReport(*resultsOf(s, 50), test::bundledCatalog(), pdf));
        const QStringList problems = test::renderingProblems(pdf, true);
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join('\n')));
    }

    /// A plan of more nodes than limits::kReportTopologyMaxNodes (the 250-node sample four
    /// times over, 36 jobs): the topology page draws its racks as blocks with counts instead
    /// of a canvas item per node, GPU and slot, and the jobs table lists the first
    /// limits::kReportMaxJobRows jobs and says how many more there are; the pages render
    /// cleanly. The sample itself is still drawn node by node.
    void largePlanTopologyIsSummarized()
    {
        const Scenario sample =
            *io::readScenarioFile(QDir(test::dataDir()).absoluteFilePath("samples/04-cluster-250-node-h100.json"),
                                  test::bundledCatalog())
                 .value;
        {
            const ui::PlanFigures f(*resultsOf(sample, 10), test::bundledCatalog());
            QVERIFY(!f.topologySummarized);
            QVERIFY(!f.topology->items().isEmpty());
        }
        Scenario s = sample;
        for (int copy = 1; copy < 4; ++copy)
            for (const Node& n : sample.topology.nodes) {
                Node c = n;
                c.id = n.id + "-copy" + std::to_string(copy);
                c.name = n.name + " copy " + std::to_string(copy);
                c.position.y += 2000.0 * copy;
                s.topology.nodes.push_back(c);
            }
        for (int copy = 1; copy < 12; ++copy)
            for (Tenant& t : s.tenants) {
                const Job j = t.jobs.front();
                Job c = j;
                c.id = j.id + "-copy" + std::to_string(copy);
                c.name = j.name + " copy " + std::to_string(copy);
                c.pin.reset();
                t.jobs.push_back(c);
            }
        QVERIFY(s.topology.nodes.size() > limits::kReportTopologyMaxNodes);
        const auto results = resultsOf(s, 10);
        {
            const ui::PlanFigures f(*results, test::bundledCatalog());
            QVERIFY(f.topologySummarized);
            QVERIFY(f.topology->items().isEmpty());
            const QString jobs = f.jobsTableHtml();
            QCOMPARE(jobs.count("<tr>"), static_cast<int>(limits::kReportMaxJobRows) + 1); // and the heading
            QVERIFY2(jobs.contains(QString("The first %1 of %2 jobs").arg(limits::kReportMaxJobRows).arg(36)),
                     qPrintable(jobs.right(300)));
        }
        const QString pdf = mDir.filePath("summarized.pdf");
        QVERIFY(ui::writeReport(*results, test::bundledCatalog(), pdf));
        const QString page2 = run("pdftotext", {"-f", "2", "-l", "2", "-layout", pdf, "-"});
        QVERIFY2(page2.contains("each block stands for a rack"), qPrintable(page2.left(1500)));
        QVERIFY2(page2.contains("1,000 nodes"), qPrintable(page2.left(1500)));
        const QStringList problems = test::renderingProblems(pdf, true);
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join('\n')));
    }

    void slidesRenderWithoutEmptyPages()
    {
        const Scenario s = *io::readScenarioFile(test::sampleFiles().front(), test::bundledCatalog()).value;
        auto deck = std::make_unique<ui::SlideDeck>(*resultsOf(s, 100), test::bundledCatalog(),
                                                    "Go with MIG for the chat service.");
        QCOMPARE(deck->count(), 8);
        QCOMPARE(deck->title(0), QString::fromStdString(s.name));
        QCOMPARE(deck->title(3), QString("Where the sharing happens"));
        for (int i = 0; i < deck->count(); ++i) {
            QImage img(1600, 900, QImage::Format_RGB32);
            img.fill(Qt::black);
            QPainter p(&img);
            deck->paint(p, QRectF(img.rect()), i);
            p.end();
            // Something is drawn: many colours, and well over a few percent of the slide not white.
            QSet<QRgb> colours;
            int inked = 0;
            for (int y = 0; y < img.height(); y += 3)
                for (int x = 0; x < img.width(); x += 3) {
                    const QRgb c = img.pixel(x, y);
                    colours.insert(c);
                    inked += c != qRgb(255, 255, 255) ? 1 : 0;
                }
            QVERIFY2(colours.size() > 8, qPrintable(QString("slide %1: %2 colours").arg(i).arg(colours.size())));
            QVERIFY2(inked > 1000, qPrintable(QString("slide %1: %2 inked samples").arg(i).arg(inked)));
            if (qEnvironmentVariableIsSet("GPUPLAN_SCREENSHOT_DIR"))
                img.save(
                    QDir(qEnvironmentVariable("GPUPLAN_SCREENSHOT_DIR")).filePath(QString("slide-%1.png").arg(i + 1)));
        }
        // The deck as a PDF: one page per slide, with the recommendation's text.
        const QString pdf = mDir.filePath("slides.pdf");
        QVERIFY(deck->writePdf(pdf));
        QCOMPARE(pages(pdf), 8);
        const QString slides = text(pdf);
        QVERIFY(slides.contains("Go with MIG for the chat service."));
        const QStringList problems = test::renderingProblems(pdf, false);
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join('\n')));
        // The trade-offs slide: a legend with text, and the matrix's headers whole.
        for (const char* entry :
             {"this scenario", "Passthrough (passthrough VM)", "Passthrough", "Time-slicing", "Performance isolation"})
            QVERIFY2(slides.contains(entry), entry);

        // The presentation: arrows and space move, Home/End jump, Esc leaves.
        auto* window = new ui::PresentationWindow(std::move(deck));
        window->resize(1280, 720);
        window->show();
        QCOMPARE(window->current(), 0);
        QTest::keyClick(window, Qt::Key_Right);
        QTest::keyClick(window, Qt::Key_Space);
        QCOMPARE(window->current(), 2);
        QTest::keyClick(window, Qt::Key_Left);
        QCOMPARE(window->current(), 1);
        QTest::keyClick(window, Qt::Key_End);
        QCOMPARE(window->current(), 7);
        QTest::keyClick(window, Qt::Key_Right); // stays on the last
        QCOMPARE(window->current(), 7);
        QPointer<ui::PresentationWindow> guard(window);
        QTest::keyClick(window, Qt::Key_Escape);
        QTRY_VERIFY(guard.isNull()); // closed and deleted
    }

    /// Issue 36: Export Slides shipped "(No recommendation written yet…)"; without a written one the
    /// last slide says what the plan's own numbers recommend, naming the job in trouble.
    void slidesWithoutAWrittenRecommendationSayWhatThePlanNeeds()
    {
        const Scenario s = *io::readScenarioFile(test::sampleFiles().front(), test::bundledCatalog()).value;
        const auto results = resultsOf(s, 50);
        ui::SlideDeck deck(*results, test::bundledCatalog(), "");
        const QString pdf = mDir.filePath("findings.pdf");
        QVERIFY(deck.writePdf(pdf));
        const QString slides = text(pdf).simplified();
        QVERIFY(!slides.contains("No recommendation written yet"));
        QVERIFY2(slides.contains("planning target"), qPrintable(slides.right(600)));
        const QString findings = ui::planFindings(*results->evaluation);
        for (const calc::JobResult& j : results->evaluation->jobs)
            if (!j.meetsSla || !j.placed)
                QVERIFY2(findings.contains(QString::fromStdString(j.name)), qPrintable(findings));
        QVERIFY2(findings.contains("does no work"), qPrintable(findings));
        // The report's summary names them too.
        const ui::PlanFigures figures(*results, test::bundledCatalog());
        for (const calc::JobResult& j : results->evaluation->jobs)
            if (!j.meetsSla || !j.placed)
                QVERIFY2(figures.summaryHtml().contains(QString::fromStdString(j.name).toHtmlEscaped()),
                         qPrintable(figures.summaryHtml()));
    }

    void comparisonSlidesRender()
    {
        const Scenario a = *io::readScenarioFile(test::sampleFiles().front(), test::bundledCatalog()).value;
        const Scenario b = *io::readScenarioFile(test::sampleFiles().at(1), test::bundledCatalog()).value;
        ui::SlideDeck deck({resultsOf(a, 50), resultsOf(b, 50)}, test::bundledCatalog(), "Keep A.");
        QCOMPARE(deck.count(), 8);
        QCOMPARE(deck.title(0), QString("Comparing A vs B"));
        QCOMPARE(deck.title(1), QString("Which is better"));
        QCOMPARE(deck.title(2), QString("Recommended vs current: B against A"));
        for (int i = 0; i < deck.count(); ++i) {
            QImage img(1600, 900, QImage::Format_RGB32);
            QPainter p(&img);
            deck.paint(p, QRectF(img.rect()), i);
            p.end();
            int inked = 0;
            for (int y = 0; y < img.height(); y += 4)
                for (int x = 0; x < img.width(); x += 4)
                    inked += img.pixel(x, y) != qRgb(255, 255, 255) ? 1 : 0;
            QVERIFY2(inked > 500, qPrintable(QString("comparison slide %1: %2").arg(i).arg(inked)));
            if (qEnvironmentVariableIsSet("GPUPLAN_SCREENSHOT_DIR"))
                img.save(QDir(qEnvironmentVariable("GPUPLAN_SCREENSHOT_DIR"))
                             .filePath(QString("compare-slide-%1.png").arg(i + 1)));
        }
        const QString pdf = mDir.filePath("compare-slides.pdf");
        QVERIFY(deck.writePdf(pdf));
        QCOMPARE(pages(pdf), 8);
        const QString t = text(pdf);
        QVERIFY(t.contains("better") || t.contains("worse"));
        // B against A: what it saves (or costs more), in penalty and predictability, what changes.
        QVERIFY2(t.contains("What it saves"), qPrintable(t));
        QVERIFY(t.contains("What it costs in penalty") && t.contains("What it costs in predictability"));
        QVERIFY(t.contains("What changes"));
        QVERIFY(t.contains(QString::fromStdString(b.name)));
        const QStringList problems = test::renderingProblems(pdf, false);
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join('\n')));
    }

    void chartsAndTablesExport()
    {
        const Scenario s = *io::readScenarioFile(test::sampleFiles().front(), test::bundledCatalog()).value;
        const ui::PlanFigures figures(*resultsOf(s, 100), test::bundledCatalog());
        const auto files = figures.chartAndTableFiles();
        const QString dir = mDir.filePath("charts");
        const Status written = io::writeFiles(dir, files);
        QVERIFY2(written, written.errorText().c_str());
        int png = 0, svg = 0;
        for (const auto& [name, content] : files) {
            if (name.endsWith(".png")) {
                ++png;
                const QImage img(QDir(dir).filePath(name));
                QCOMPARE(img.size(), QSize(1600, 900));
            } else if (name.endsWith(".svg")) {
                ++svg;
                QDomDocument xml;
                QVERIFY2(xml.setContent(content), qPrintable(name));
                QCOMPARE(xml.documentElement().tagName(), QString("svg"));
                QVERIFY(content.contains("<path") || content.contains("<text")); // vector content
            }
        }
        QCOMPARE(png, 7);
        QCOMPARE(svg, 7);
        // CSV: one row per job, KPIs by key; names with commas are quoted.
        QFile jobs(QDir(dir).filePath("jobs.csv"));
        QVERIFY(jobs.open(QIODevice::ReadOnly));
        const QStringList lines = QString::fromUtf8(jobs.readAll()).split('\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 1 + 5);
        QVERIFY(lines[0].startsWith("tenant,job_id,job,placed"));
        QVERIFY(lines[0].endsWith(",ttft_p99_s,itl_p99_s,slo_attainment,slowdown_vs_dedicated,tp_link"));
        int serving = 0;
        for (const QString& line : lines.mid(1)) {
            const QStringList f = line.split(','); // the sample's names have no commas
            QCOMPARE(f.size(), 17);
            QVERIFY(f[3] != "yes" || f[15].toDouble() >= 0); // slowdown against whole dedicated GPUs
            QVERIFY(f[3] != "yes" || f[16] == "nvlink" || f[16].isEmpty());
            if (!f[14].isEmpty()) {
                ++serving;
                QVERIFY(f[12].toDouble() > 0 && f[13].toDouble() > 0);
                QVERIFY(f[14].toDouble() >= 0 && f[14].toDouble() <= 1);
            }
        }
        QCOMPARE(serving, 2);
        QFile kpis(QDir(dir).filePath("kpis.csv"));
        QVERIFY(kpis.open(QIODevice::ReadOnly));
        const QString k = QString::fromUtf8(kpis.readAll());
        double cost = 0;
        for (const QString& line : k.split('\n'))
            if (line.startsWith("cost_per_month_usd,$ per month,"))
                cost = line.section(',', 2).toDouble();
        QVERIFY2(qAbs(cost - 139693) < 1.0, qPrintable(k));
    }

    void cliWritesTheReportFromAFileOrTheLibrary()
    {
        const QString cli = qEnvironmentVariable("GPUPLAN_CLI");
        int code = -1;
        const QString pdf = mDir.filePath("cli.pdf");
        run(cli, {"report", test::sampleFiles().front(), "-o", pdf, "--trials", "100"}, &code);
        QCOMPARE(code, 0);
        QCOMPARE(pages(pdf), ui::kReportPages);
        QVERIFY(text(pdf).contains("DGX H100 pod: three tenants"));

        // --current: the plan is a recommendation in place of that file; one more page says so.
        const QString recommended = mDir.filePath("recommended.pdf");
        run(cli,
            {"report", test::sampleFiles().at(1), "--current", test::sampleFiles().front(), "-o", recommended,
             "--trials", "100"},
            &code);
        QCOMPARE(code, 0);
        QCOMPARE(pages(recommended), ui::kReportPages + 1);
        const QString page = text(recommended);
        QVERIFY2(page.contains("Recommended vs current") && page.contains("What it saves"), qPrintable(page));
        run(cli, {"report", test::sampleFiles().at(1), "--current", mDir.filePath("missing.json"), "-o", recommended},
            &code);
        QCOMPARE(code, 2);

        // A library scenario by id.
        const QString db = mDir.filePath("lib.sqlite");
        auto lib = document::openLibrary(db, test::bundledCatalog(), QDir(test::dataDir()).filePath("samples"));
        QVERIFY2(lib, lib.errorText().c_str());
        const auto all = (*lib)->list();
        qint64 mixed = 0;
        for (const auto& row : *all)
            if (row.name == "Mixed sharing lab")
                mixed = row.id;
        lib.value.reset();
        const QString fromLib = mDir.filePath("lib.pdf");
        run(cli, {"report", "--scenario", QString::number(mixed), "--db", db, "-o", fromLib, "--trials", "100"}, &code);
        QCOMPARE(code, 0);
        QVERIFY(text(fromLib).contains("Mixed sharing lab"));

        // Bad input: no output (2); a folder that does not exist (1), and no file anywhere.
        run(cli, {"report", test::sampleFiles().front()}, &code);
        QCOMPARE(code, 2);
        const QString nowhere = mDir.filePath("missing/folder/out.pdf");
        run(cli, {"report", test::sampleFiles().front(), "-o", nowhere, "--trials", "10"}, &code);
        QCOMPARE(code, 1);
        QVERIFY(!QFile::exists(nowhere));
    }
};

QTEST_MAIN(TestReport)
#include "tst_report.moc"
