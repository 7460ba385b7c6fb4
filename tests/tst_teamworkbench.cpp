// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// Two workbenches on one library (issue 20: no lost work between teammates): both open the same
// scenario and edit it; the first Ctrl+S saves revision 2; the second is refused as a conflict
// that names who saved which revision, and its edits stay open — Save on Top saves them as
// revision 3, Save as New Scenario as a scenario of their own, Cancel keeps them unsaved.
#include "document/commands.h"
#include "document/document.h"
#include "document/librarygateway.h"
#include "pgserver.h"
#include "store/scenariolibrary.h"
#include "ui/library/connectdialog.h"
#include "ui/library/librarypanel.h"
#include "ui/library/livelibrary.h"
#include "ui/library/revisionsdialog.h"
#include "windowfixture.h"

#include <QInputDialog>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <functional>

using namespace gp;

namespace {

/// Changes the first tenant's priority in the window's open scenario (one undoable edit).
void edit(ui::MainWindow* w, int priority)
{
    document::Document* doc = w->currentDocument();
    Scenario s = doc->scenario();
    s.tenants.front().priority = priority;
    doc->push(*document::changeScenario(doc->scenario(), test::bundledCatalog(), s, "priority"));
}

/// Presses Ctrl+S in `w`; when the conflict box comes up, records its text and clicks the button
/// called `answer` (or Cancel when empty). The box is looked for from the key press until the
/// save returns (the save is synchronous: the key click returns once the box is answered), so a
/// slow machine cannot let the look pass before the box is up and leave it waiting forever.
QString saveAnswering(ui::MainWindow* w, const QString& answer)
{
    w->raise();
    w->activateWindow();
    QApplication::setActiveWindow(w);
    if (!QTest::qWaitForWindowActive(w))
        qWarning("the window did not become active");
    QString text;
    QTimer look;
    QObject::connect(&look, &QTimer::timeout, &look, [&text, &answer] {
        auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
        if (!box || box->objectName() != "saveConflictBox")
            return;
        if (text.isEmpty())
            text = box->text();
        if (answer.isEmpty())
            QTest::keyClick(box, Qt::Key_Escape);
        else
            QTest::mouseClick(box->findChild<QPushButton*>(answer), Qt::LeftButton);
    });
    look.start(20);
    QTest::keyClick(w, Qt::Key_S, Qt::ControlModifier);
    look.stop();
    QTest::qWait(50); // the save goes on after the box
    return text;
}

/// Runs `act` on the modal dialog of type T once it is up (polled every 50 ms, for up to 20 s).
template <typename T> void whenModal(std::function<void(T*)> act)
{
    auto* poll = new QTimer;
    auto tries = std::make_shared<int>(0);
    QObject::connect(poll, &QTimer::timeout, [poll, tries, act] {
        if (auto* dialog = qobject_cast<T*>(QApplication::activeModalWidget())) {
            poll->stop();
            poll->deleteLater();
            act(dialog);
        } else if (++*tries > 400) {
            poll->stop();
            poll->deleteLater();
        }
    });
    poll->start(50);
}

/// A server with the database "team" set up by init-server and holding one scenario, "Shared
/// plan" (the first sample); false, with the reason in server.error(), when any step fails.
bool teamLibrary(test::PostgresServer& server)
{
    if (!server.start() || !server.sql("postgres", "CREATE DATABASE team"))
        return false;
    auto admin = store::ScenarioLibrary::open(server.address("team"));
    QFile sample(test::sampleFiles().front());
    return admin && (*admin)->initServerRoles() && sample.open(QIODevice::ReadOnly) &&
           (*admin)->createScenario("Shared plan", "", sample.readAll(), "first", {});
}

} // namespace

class TestTeamWorkbench : public QObject
{
    Q_OBJECT

    QTemporaryDir mTmp;

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void aConflictingSaveLosesNothing()
    {
        const QString db = mTmp.filePath("team.sqlite");
        auto alice = test::makeWindow(db);
        auto bob = test::makeWindow(db);
        for (ui::MainWindow* w : {alice.get(), bob.get()}) {
            w->resize(1366, 768);
            w->show();
            w->files()->openFirst();
            QVERIFY(QTest::qWaitForWindowExposed(w));
        }
        const qint64 id = *alice->currentDocument()->libraryId();
        QCOMPARE(*bob->currentDocument()->libraryId(), id);
        store::ScenarioLibrary& lib = *alice->library();
        const int revisions = lib.scenario(id)->revisionCount;

        edit(alice.get(), 7);
        QVERIFY(saveAnswering(alice.get(), {}).isEmpty()); // no conflict: saved
        QCOMPARE(lib.scenario(id)->revisionCount, revisions + 1);

        // Bob started from the same revision: refused, said, his edit still open.
        edit(bob.get(), 9);
        const QString said = saveAnswering(bob.get(), {});
        QVERIFY2(said.contains(lib.author() + " saved revision " + QString::number(revisions + 1)),
                 qPrintable(said + " / revisions " + QString::number(lib.scenario(id)->revisionCount)));
        QVERIFY(said.contains("Your edits are not lost"));
        QCOMPARE(lib.scenario(id)->revisionCount, revisions + 1);
        QVERIFY(bob->currentDocument()->isModified());
        QCOMPARE(bob->currentDocument()->scenario().tenants.front().priority, 9);

        // Save on Top: his edits become the latest revision.
        QVERIFY(!saveAnswering(bob.get(), "conflictSaveOnTop").isEmpty());
        QCOMPARE(lib.scenario(id)->revisionCount, revisions + 2);
        QCOMPARE(*bob->currentDocument()->revision(), revisions + 2);
        QVERIFY(!bob->currentDocument()->isModified());
        QVERIFY(lib.document(id)->contains("\"priority\": 9"));

        // Alice again from her (now old) revision: Save as New Scenario keeps hers apart.
        edit(alice.get(), 11);
        const int scenarios = *lib.scenarioCount();
        QVERIFY(!saveAnswering(alice.get(), "conflictSaveAsNew").isEmpty());
        QCOMPARE(*lib.scenarioCount(), scenarios + 1);
        QCOMPARE(lib.scenario(id)->revisionCount, revisions + 2); // the shared one untouched
        QVERIFY(alice->currentDocument()->libraryId() != id);
        QVERIFY(QString::fromStdString(alice->currentDocument()->scenario().name).endsWith("(my edits)"));
    }

    /// A viewer of a team library: every scenario opens read-only and says for whom; an edit and
    /// Ctrl+S change nothing and say why in the status bar.
    void aViewerOpensEverythingReadOnly()
    {
        test::PostgresServer server;
        QVERIFY2(teamLibrary(server), qPrintable(server.error()));
        QVERIFY(server.sql("team", "CREATE ROLE victor LOGIN IN ROLE gpuplan_viewer"));
        auto w = test::makeWindow(server.address("team", "victor"));
        w->resize(1366, 768);
        w->show();
        w->files()->openFirst();
        QVERIFY(QTest::qWaitForWindowExposed(w.get()));
        document::Document* doc = w->currentDocument();
        QVERIFY(doc->isReadOnly());
        QVERIFY2(w->windowTitle().contains("read-only for victor"), qPrintable(w->windowTitle()));
        QVERIFY(!w->workbench().editable());
        QSignalSpy said(&w->workbench(), &ui::Workbench::message);
        QApplication::setActiveWindow(w.get());
        QTest::keyClick(w.get(), Qt::Key_S, Qt::ControlModifier);
        QTRY_VERIFY(!said.isEmpty());
        QVERIFY2(said.last().at(0).toString().contains("may only read this team library"),
                 qPrintable(said.last().at(0).toString()));
        QCOMPARE(w->library()->scenario(1)->revisionCount, 1);
    }

    /// Two workbenches on one team library see each other's work live: a rename shows in the
    /// other's library panel within a second, a save of the open scenario raises the banner
    /// "alice saved revision 2 at …" whose Reload opens it; after the server drops the watcher's
    /// connection it reconnects and the next save is seen too.
    void twoWorkbenchesSeeEachOthersSavesLive()
    {
        test::PostgresServer server;
        QVERIFY2(teamLibrary(server), qPrintable(server.error()));
        QVERIFY(server.sql("team", "CREATE ROLE alice LOGIN IN ROLE gpuplan_planner;"
                                   "CREATE ROLE bob LOGIN IN ROLE gpuplan_planner"));
        auto alice = test::makeWindow(server.address("team", "alice"));
        auto bob = test::makeWindow(server.address("team", "bob"));
        for (ui::MainWindow* w : {alice.get(), bob.get()}) {
            w->resize(1366, 768);
            w->show();
            w->files()->openFirst();
            QVERIFY(QTest::qWaitForWindowExposed(w));
        }
        const qint64 id = *alice->currentDocument()->libraryId();
        QTableWidget* bobsPanel = bob->findChild<ui::LibraryPanel*>()->table();

        QVERIFY(alice->files()->renameScenario(id, "Shared plan (Q3)"));
        QTRY_VERIFY_WITH_TIMEOUT(!bobsPanel->findItems("Shared plan (Q3)", Qt::MatchExactly).isEmpty(), 3000);

        edit(alice.get(), 5);
        saveAnswering(alice.get(), {});
        QTRY_VERIFY_WITH_TIMEOUT(bob->liveLibrary()->text().contains("alice</b> saved revision 2 at"), 3000);
        if (qEnvironmentVariableIsSet("GPUPLAN_SCREENSHOT_DIR"))
            bob->grab().save(QDir(qEnvironmentVariable("GPUPLAN_SCREENSHOT_DIR")).filePath("live-library.png"));
        QTest::mouseClick(bob->liveLibrary()->findChild<QPushButton*>("liveReload"), Qt::LeftButton);
        QCOMPARE(*bob->currentDocument()->revision(), 2);
        QCOMPARE(bob->currentDocument()->scenario().tenants.front().priority, 5);
        QVERIFY(bob->liveLibrary()->text().isEmpty());

        // The server drops every watcher's connection: each comes back and sees the next save.
        QVERIFY(server.sql("team", "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                                   " WHERE application_name = 'gpuplan-watch'"));
        QTest::qWait(2500);
        edit(alice.get(), 6);
        saveAnswering(alice.get(), {});
        QTRY_VERIFY_WITH_TIMEOUT(bob->liveLibrary()->text().contains("saved revision 3"), 5000);
    }

    /// File > Connect to Team Library…: a profile typed and saved (name and address in the
    /// settings, never a password), Connect, the password the server wants asked for and typed;
    /// a workbench window of its own opens on the team library as that role.
    void connectingSavesAProfileAndAsksForThePassword()
    {
        test::PostgresServer server;
        QVERIFY2(teamLibrary(server), qPrintable(server.error()));
        QVERIFY(server.sql("team", "CREATE ROLE pwuser LOGIN PASSWORD 'right' IN ROLE gpuplan_planner"));
        qputenv("PGPASSFILE", mTmp.filePath("no-pgpass").toUtf8()); // libpq finds no password
        QSettings().remove("teamLibrary/profiles");                 // a run before may have left one
        auto w = test::makeWindow(mTmp.filePath("local.sqlite"));
        w->show();
        QVERIFY(QTest::qWaitForWindowExposed(w.get()));
        const QString address = server.address("team", "pwuser");
        whenModal<ui::ConnectDialog>([address](ui::ConnectDialog* dialog) {
            auto* name = dialog->findChild<QLineEdit*>("ConnectName");
            auto* where = dialog->findChild<QLineEdit*>("ConnectAddress");
            name->clear();
            where->clear();
            QTest::keyClicks(name, "Team Q3");
            QTest::keyClicks(where, address);
            QTest::mouseClick(dialog->findChild<QPushButton*>("ConnectSaveProfile"), Qt::LeftButton);
            if (qEnvironmentVariableIsSet("GPUPLAN_SCREENSHOT_DIR"))
                dialog->grab().save(QDir(qEnvironmentVariable("GPUPLAN_SCREENSHOT_DIR")).filePath("connect.png"));
            whenModal<QInputDialog>([](QInputDialog* ask) { // the password the server asks for
                QVERIFY(ask->labelText().contains("no password supplied") ||
                        ask->labelText().contains("password authentication failed"));
                QTest::keyClicks(ask->findChild<QLineEdit*>(), "right");
                ask->accept();
            });
            QTest::mouseClick(dialog->findChild<QPushButton*>("ConnectButton"), Qt::LeftButton);
        });
        QAction* connectAction = nullptr;
        for (QAction* a : w->findChildren<QAction*>())
            if (a->text() == "Connect to &Team Library…")
                connectAction = a;
        QVERIFY(connectAction);
        connectAction->trigger();
        ui::MainWindow* team = nullptr;
        for (QWidget* top : QApplication::topLevelWidgets())
            if (auto* m = qobject_cast<ui::MainWindow*>(top); m && m != w.get() && m->library()->isServer())
                team = m;
        QVERIFY(team);
        QCOMPARE(team->library()->author(), QString("pwuser"));
        QVERIFY(team->library()->canWrite());
        QCOMPARE(QString::fromStdString(team->currentDocument()->scenario().name), QString("Shared plan"));
        const auto profiles = ui::ConnectDialog::profiles();
        QCOMPARE(profiles.size(), std::size_t{1});
        QCOMPARE(profiles.front().first, QString("Team Q3"));
        QCOMPARE(profiles.front().second, address);
        QSettings settings;
        for (const QString& key : settings.allKeys())
            QVERIFY2(!settings.value(key).toString().contains("right") &&
                         !QString(QJsonDocument::fromVariant(settings.value(key)).toJson()).contains("right"),
                     qPrintable(key));
        team->close();
        qunsetenv("PGPASSFILE");
    }

    /// Revisions saved under the old definition of waste keep their figure, labelled; those that
    /// stored none say so (issue 36).
    void revisionsLabelTheOldWasteDefinition()
    {
        store::RevisionInfo old, none, now, two;
        two.kpis = {{"waste_per_month_usd", 93145.0}, {"cost_definition", 2.0}}; // a slice's size as penalty
        old.number = 1;
        old.kpis = {{"cost_per_month_usd", 90403.0}, {"waste_per_month_usd", 93145.0}};
        none.number = 2;
        none.kpis = {{"cost_per_month_usd", 90403.0}};
        now.number = 3;
        now.kpis = {{"cost_per_month_usd", 90403.0},
                    {"waste_per_month_usd", 86336.0},
                    {"cost_definition", double(document::kCostDefinition)}};
        ui::RevisionsDialog dialog("lab", {old, none, now, two});
        auto* table = dialog.findChild<QTableWidget*>("revisionTable");
        QCOMPARE(table->item(0, 4)->text(), QString("93,145 (old definition)"));
        QCOMPARE(table->item(1, 4)->text(), QString("not stored"));
        QCOMPARE(table->item(2, 4)->text(), QString("86,336"));
        QCOMPARE(table->item(3, 4)->text(), QString("93,145 (earlier penalty)"));
    }
};

QTEST_MAIN(TestTeamWorkbench)
#include "tst_teamworkbench.moc"
