// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// Never lose a plan: the workbench's autosaved draft survives a SIGKILL and is offered at
// the next start, and a process killed at random moments during a long series of saves
// leaves a library that opens, passes PRAGMA integrity_check and holds every revision it
// reported committed.
#include "crashprotocol.h"
#include "document/autosaver.h"
#include "document/commands.h"
#include "document/document.h"
#include "document/librarygateway.h"
#include "io/scenarioreader.h"
#include "testsupport.h"
#include "ui/canvas/canvaseditor.h"
#include "ui/canvas/canvasview.h"
#include "ui/library/librarycontroller.h"
#include "ui/library/recoverybar.h"
#include "ui/library/recoverycontroller.h"
#include "ui/mainwindow.h"

#include <QProcess>
#include <QPushButton>
#include <QRandomGenerator>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>

using namespace gp;

namespace {

QString crashChild() { return qEnvironmentVariable("GPUPLAN_CRASHCHILD"); }

/// Reads the child's lines until `done` says enough (or `timeoutMs`); returns them all.
QStringList readUntil(QProcess& child, const std::function<bool(const QString&)>& done, int timeoutMs)
{
    QStringList lines;
    QElapsedTimer clock;
    clock.start();
    while (clock.elapsed() < timeoutMs && child.state() == QProcess::Running) {
        child.waitForReadyRead(100);
        while (child.canReadLine()) {
            lines << QString::fromUtf8(child.readLine()).trimmed();
            if (done(lines.back()))
                return lines;
        }
    }
    return lines;
}

/// The number after `prefix` in the last line that has it, or -1.
int lastNumber(const QStringList& lines, const QString& prefix)
{
    for (auto it = lines.rbegin(); it != lines.rend(); ++it)
        if (it->startsWith(prefix))
            return it->mid(prefix.size()).toInt();
    return -1;
}

/// SIGKILL after a random pause; every line the child wrote before it died is returned.
QStringList killAfter(QProcess& child, QStringList lines, int maxPauseMs)
{
    QTest::qWait(static_cast<int>(QRandomGenerator::global()->bounded(maxPauseMs)));
    child.kill(); // SIGKILL: no destructor, no atexit, no flush
    child.waitForFinished(10000);
    while (child.canReadLine())
        lines << QString::fromUtf8(child.readLine()).trimmed();
    return lines;
}

std::unique_ptr<store::ScenarioLibrary> openOrFail(const QString& path)
{
    auto lib = store::ScenarioLibrary::open(path);
    if (!lib)
        qWarning("%s", lib.errorText().c_str());
    return lib ? std::move(*lib) : nullptr;
}

} // namespace

class TestRecovery : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY2(QFileInfo(crashChild()).isExecutable(), "GPUPLAN_CRASHCHILD is not set by CTest");
        QVERIFY(mTmp.isValid());
    }

    void killedWorkbenchIsOfferedAndRestoredAtTheNextStart()
    {
        const QString db = mTmp.filePath("killed.sqlite");
        const auto sample = io::readScenarioFile(test::sampleFiles().first(), test::bundledCatalog());
        QVERIFY(sample.ok());
        const std::size_t base = sample.value->topology.nodes.size();
        {
            auto lib = openOrFail(db);
            QVERIFY(lib && document::saveAsNew(*lib, *sample.value, test::bundledCatalog(), "first"));
        }

        QProcess child;
        child.start(crashChild(), {"workbench", db});
        QVERIFY2(child.waitForStarted(), qPrintable(child.errorString()));
        // Drafts can skip node counts when the child is slow (sanitizers): an edit every 60 ms,
        // a draft 150 ms after the last edit settles, so wait for any draft at least 3 nodes on.
        const int want = static_cast<int>(base) + 3;
        const auto reached = [want](const QString& l) { return l.startsWith("draft ") && l.mid(6).toInt() >= want; };
        QStringList lines = readUntil(child, reached, 120000);
        QVERIFY2(std::any_of(lines.cbegin(), lines.cend(), reached),
                 qPrintable("the workbench never autosaved: " + lines.join(" | ") + child.readAllStandardError()));
        lines = killAfter(child, lines, 400); // mid-edit: a node is added every 60 ms
        QCOMPARE(child.exitStatus(), QProcess::CrashExit);
        const int lastReported = lastNumber(lines, "draft ");
        qInfo("killed after a draft with %d nodes was reported (the sample has %zu)", lastReported, base);

        // The draft survived the kill, and is whole.
        auto lib = openOrFail(db);
        QVERIFY(lib);
        QCOMPARE(*lib->integrityCheck(), QString("ok"));
        const auto drafts = *lib->drafts();
        QCOMPARE(drafts.size(), std::size_t(1));
        const auto draft = io::readScenario(drafts.front().document, test::bundledCatalog());
        QVERIFY(draft.ok());
        const int draftNodes = static_cast<int>(draft.value->topology.nodes.size());
        QVERIFY2(draftNodes >= lastReported,
                 qPrintable(QString("draft has %1 nodes, %2 were reported").arg(draftNodes).arg(lastReported)));
        QCOMPARE(drafts.front().scenarioId.value(), qint64(1));
        QCOMPARE(drafts.front().baseRevision.value(), 1);

        // The next start offers it; Restore opens it as an unsaved change on revision 1.
        ui::MainWindow w(test::bundledCatalog(), std::move(lib));
        w.show();
        w.files()->openFirst();
        QCOMPARE(w.recovery()->offerRecovery(), 1);
        const ui::RecoveryBar* bar = w.recoveryBar();
        QVERIFY(bar->isVisible());
        QVERIFY2(bar->text().contains("changes to revision 1 of"), qPrintable(bar->text()));
        QVERIFY(bar->text().contains(QString::fromStdString(sample.value->name).toHtmlEscaped()));
        if (qEnvironmentVariableIsSet("GPUPLAN_SCREENSHOT_DIR")) {
            w.resize(1400, 900);
            QTest::qWait(1500); // the first evaluation
            w.grab().save(QDir(qEnvironmentVariable("GPUPLAN_SCREENSHOT_DIR")).filePath("recovery-banner.png"));
        }
        bar->findChild<QPushButton*>("restoreDraft")->click();
        QVERIFY(!bar->isVisible());
        document::Document* doc = w.currentDocument();
        QVERIFY(doc->isModified());
        QCOMPARE(static_cast<int>(doc->scenario().topology.nodes.size()), draftNodes);
        QCOMPARE(doc->undoStack()->undoText(), QString("Restore autosaved work"));
        doc->undoStack()->undo(); // back to the saved revision
        QCOMPARE(doc->scenario().topology.nodes.size(), base);
        QVERIFY(!doc->isModified());
        doc->undoStack()->redo();

        // The draft is this session's now, and saving retires it.
        w.autosaver()->saveNow();
        auto now = *w.library()->drafts();
        QCOMPARE(now.size(), std::size_t(1));
        QCOMPARE(now.front().session, w.autosaver()->session());
        QVERIFY(w.files()->saveRevision("recovered after a crash"));
        QVERIFY(w.library()->drafts()->empty());
        const auto saved = document::loadFromLibrary(*w.library(), 1, test::bundledCatalog());
        QCOMPARE(static_cast<int>(saved.value->topology.nodes.size()), draftNodes);
        QCOMPARE(w.recovery()->offerRecovery(), 0);
    }

    void aRunningSessionsDraftIsNotOffered()
    {
        auto lib = openOrFail(mTmp.filePath("live.sqlite"));
        QVERIFY(lib);
        Scenario s = *io::readScenarioFile(test::sampleFiles().first(), test::bundledCatalog()).value;
        document::Document doc(s);
        doc.push(document::renameScenario(s, "changed"));
        auto running = std::make_unique<document::Autosaver>(lib.get());
        running->watch(&doc);
        QVERIFY(running->saveNow());
        document::Autosaver other(lib.get());
        QVERIFY(other.orphanedDrafts()->empty()); // its session still holds its lock
        running.reset();                          // the session ends without discarding
        const auto orphans = *other.orphanedDrafts();
        QCOMPARE(orphans.size(), std::size_t(1));
        QCOMPARE(orphans.front().name, QString("changed"));
        QVERIFY(other.removeDraft(orphans.front().session));
        QVERIFY(other.orphanedDrafts()->empty());
    }

    void savingOrSwitchingDocumentsRetiresTheDraft()
    {
        auto w = std::make_unique<ui::MainWindow>(test::bundledCatalog(), openOrFail(mTmp.filePath("retire.sqlite")));
        QVERIFY(document::saveAsNew(*w->library(),
                                    *io::readScenarioFile(test::sampleFiles().first(), test::bundledCatalog()).value,
                                    test::bundledCatalog(), "first"));
        w->files()->openFirst();
        auto* autosaver = w->autosaver();
        QVERIFY(!w->currentDocument()->isModified());
        autosaver->setDelayMs(50);
        QSignalSpy saved(autosaver, &document::Autosaver::draftSaved);
        w->canvasView()->editor()->addFromTemplate("node:dgx-h100", QPointF(0, 900));
        QVERIFY(saved.wait(5000)); // written within the delay of the edit, with no save asked
        QCOMPARE(w->library()->drafts()->size(), std::size_t(1));
        QVERIFY(w->files()->saveRevision("saved"));
        QVERIFY(w->library()->drafts()->empty());
        w->canvasView()->editor()->addFromTemplate("node:dgx-h100", QPointF(100, 900));
        QVERIFY(saved.wait(5000));
        QCOMPARE(w->library()->drafts()->size(), std::size_t(1));
        w->currentDocument()->undoStack()->undo(); // back to what is saved: nothing to keep
        QVERIFY(w->library()->drafts()->empty());
        w->canvasView()->editor()->addFromTemplate("node:dgx-h100", QPointF(200, 900));
        QVERIFY(autosaver->saveNow());
        QVERIFY(w->files()->newScenario(false)); // the user chose to drop the changes
        QVERIFY(w->library()->drafts()->empty());
    }

    void aJsonWrittenInTheBackgroundIsDroppedOnceStale()
    {
        // The 2,000-GPU sample: its JSON takes tens of milliseconds on the pool thread.
        auto w = std::make_unique<ui::MainWindow>(test::bundledCatalog(), openOrFail(mTmp.filePath("stale.sqlite")));
        const QString big = QDir(test::dataDir()).absoluteFilePath("samples/04-cluster-250-node-h100.json");
        QVERIFY(document::saveAsNew(*w->library(), *io::readScenarioFile(big, test::bundledCatalog()).value,
                                    test::bundledCatalog(), "first"));
        w->files()->openFirst();
        auto* autosaver = w->autosaver();
        autosaver->setDelayMs(0);
        // The node count of every draft stored, as it lands in the library.
        std::vector<qsizetype> stored;
        connect(autosaver, &document::Autosaver::draftSaved, this,
                [&] { stored.push_back(test::nodeCountOf(w->library()->drafts()->front().document)); });
        auto editAndStartWriting = [&](double x) {
            w->canvasView()->editor()->addFromTemplate("node:dgx-h100", QPointF(x, -400));
            while (!autosaver->isWriting()) // the timer starts the writer; its result comes later
                QCoreApplication::processEvents();
        };
        auto nodes = [&] { return static_cast<qsizetype>(w->currentDocument()->scenario().topology.nodes.size()); };

        // Saved, then edited, while the JSON was being written: that JSON is of a state the
        // library already has, and must not land as the draft of the new revision.
        editAndStartWriting(0);
        QVERIFY(w->files()->saveRevision("saved mid-write"));
        w->canvasView()->editor()->addFromTemplate("node:dgx-h100", QPointF(100, -400));
        QTRY_VERIFY_WITH_TIMEOUT(!autosaver->isWriting() && !stored.empty(), 20000);
        QCOMPARE(stored, std::vector<qsizetype>{nodes()});

        // Another scenario opened (and edited) while writing: the old scenario's JSON is not
        // stored as the new one's draft.
        stored.clear();
        editAndStartWriting(200);
        QVERIFY(w->files()->newScenario(false));
        w->canvasView()->editor()->addFromTemplate("node:dgx-h100", QPointF(0, 0));
        QTRY_VERIFY_WITH_TIMEOUT(!autosaver->isWriting() && !stored.empty(), 20000);
        QCOMPARE(stored, std::vector<qsizetype>{1});

        // Edited while writing: once the first JSON is stored, the newer state follows.
        stored.clear();
        editAndStartWriting(100);
        w->canvasView()->editor()->addFromTemplate("node:dgx-h100", QPointF(200, 0)); // its timer fires while writing
        QTRY_VERIFY_WITH_TIMEOUT(!autosaver->isWriting() && !stored.empty() && stored.back() == nodes(), 20000);
        QCOMPARE(w->library()->drafts()->size(), std::size_t(1));
    }

    void unreadableDraftIsExplainedAndKept()
    {
        auto lib = openOrFail(mTmp.filePath("unreadable.sqlite"));
        QVERIFY(lib);
        store::Draft d;
        d.session = "crashed-session";
        d.name = "half a plan";
        d.document = R"({"format_version": 1, "name": "half a plan", "topology": {"nodes": [{"id": 5}]}})";
        QVERIFY(lib->saveDraft(d));
        const auto r = document::restoreDraft(*lib, lib->drafts()->front(), test::bundledCatalog());
        QVERIFY(!r.ok());
        const QString error = QString::fromStdString(issueLines(r.issues));
        QVERIFY2(error.contains("The autosaved draft of 'half a plan' cannot be read") &&
                     error.contains("topology.nodes[0]"),
                 qPrintable(error));
        QCOMPARE(lib->drafts()->size(), std::size_t(1));
    }

    void killDuringSavesKeepsEveryCommittedRevision()
    {
        const QString db = mTmp.filePath("saves.sqlite");
        const quint32 seed = QRandomGenerator::global()->generate();
        QRandomGenerator rng(seed);
        qInfo("kill pauses drawn with seed %u", seed);
        int committed = 0;
        for (int round = 0; round < 8; ++round) {
            QProcess child;
            child.start(crashChild(), {"saves", db});
            QVERIFY(child.waitForStarted());
            QStringList lines = readUntil(
                child, [](const QString& l) { return l.startsWith("committed"); }, 60000);
            QVERIFY2(!lines.isEmpty(), child.readAllStandardError().constData());
            QTest::qWait(static_cast<int>(rng.bounded(250)));
            lines = killAfter(child, lines, 50);
            const int reported = lastNumber(lines, "committed ");
            QVERIFY(reported > committed);
            qInfo("round %d: killed after revision %d was reported committed", round + 1, reported);
            committed = reported;

            auto lib = openOrFail(db);
            QVERIFY2(lib, "the library does not open after the kill");
            QCOMPARE(*lib->integrityCheck(), QString("ok"));
            const auto revs = *lib->revisions(1);
            QVERIFY2(static_cast<int>(revs.size()) >= committed,
                     qPrintable(QString("%1 revisions, %2 reported committed").arg(revs.size()).arg(committed)));
            for (std::size_t i = 0; i < revs.size(); ++i) {
                const int n = static_cast<int>(i) + 1;
                QCOMPARE(revs[i].number, n);
                QCOMPARE(revs[i].note, QString::number(n));
                QCOMPARE(revs[i].kpis.at("n"), double(n));
            }
            // Every document byte for byte; the newest few each round, all of them at the end.
            const int from = round == 7 ? 1 : std::max(1, committed - 20);
            for (int n = from; n <= static_cast<int>(revs.size()); ++n)
                QVERIFY2(*lib->document(1, n) == test::revisionDocument(n), qPrintable(QString("revision %1").arg(n)));
        }
    }

private:
    QTemporaryDir mTmp;
};

QTEST_MAIN(TestRecovery)
#include "tst_recovery.moc"
