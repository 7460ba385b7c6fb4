// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// File > Import Cluster… (issue 38), driven with the menu, keys and the mouse on a 1366x768 and a
// 1920x1080 window: the Kubernetes fixture with tenants by a pod label, and Slurm's captured
// output with a GPU name, each opened as a new library scenario; a truncated file and an unknown
// GPU refused in the dialog, which stays open, and nothing added to the library; a live cluster
// whose API server never answers read off the GUI thread, the window responding, and Cancel
// killing kubectl within a second.
#include "guidriver.h"
#include "windowfixture.h"

#include "io/scenarioreader.h"
#include "store/scenariolibrary.h"
#include "ui/canvas/canvasview.h"
#include "ui/library/importclusterdialog.h"

#include <QComboBox>
#include <QElapsedTimer>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QProgressBar>
#include <QPushButton>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

using namespace gp;
using gp::test::child;
using gp::test::typeInto;

namespace {

void choose(QComboBox* box, int index)
{
    box->setFocus();
    while (box->currentIndex() < index)
        QTest::keyClick(box, Qt::Key_Down);
    while (box->currentIndex() > index)
        QTest::keyClick(box, Qt::Key_Up);
}

QByteArray readFile(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

QString fixture(const QString& name) { return QDir(test::fixturesDir()).filePath("cluster/" + name); }

} // namespace

class TestImportClusterDialog : public QObject
{
    Q_OBJECT

    QTemporaryDir mTmp;
    std::unique_ptr<ui::MainWindow> mWindow;

    /// File > Import Cluster…, through the menu bar as a user opens it.
    ui::ImportClusterDialog* openDialog()
    {
        QMenu* file = nullptr;
        for (QAction* a : mWindow->menuBar()->actions())
            if (a->text() == "&File")
                file = a->menu();
        if (!file)
            qFatal("no File menu");
        QAction* import = nullptr;
        for (QAction* a : file->actions())
            if (a->text().startsWith("Import &Cluster"))
                import = a;
        if (!import)
            qFatal("no File > Import Cluster…");
        import->trigger();
        ui::ImportClusterDialog* d = mWindow->files()->importClusterDialog();
        if (!d || !QTest::qWaitForWindowExposed(d))
            qFatal("File > Import Cluster… did not open the dialog");
        return d;
    }

    std::size_t libraryCount() { return mWindow->workbench().library().list()->size(); }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        mWindow = test::makeWindow(mTmp.filePath("lib.sqlite"));
        mWindow->show();
        mWindow->files()->openFirst();
        QVERIFY(QTest::qWaitForWindowExposed(mWindow.get()));
    }

    /// Every label with a mnemonic names its field (a form row of several widgets gets no buddy
    /// by itself, and its '&' would be drawn): Alt+F puts the cursor in the file field.
    void everyMnemonicReachesItsField()
    {
        ui::ImportClusterDialog* d = openDialog();
        for (QLabel* l : d->findChildren<QLabel*>()) {
            const QString t = l->text();
            if (t.contains('&') && !t.contains("&&") && !t.contains('<'))
                QVERIFY2(l->buddy(), qPrintable(t));
        }
        auto* file = child<QLineEdit>(d, "ImportKubernetesFile");
        QTest::keyClick(d, Qt::Key_F, Qt::AltModifier);
        QTRY_VERIFY(file->hasFocus());
        d->reject();
    }

    void importsKubernetesWithTenantsByLabel_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::newRow("1366x768") << QSize(1366, 768);
        QTest::newRow("1920x1080") << QSize(1920, 1080);
    }
    void importsKubernetesWithTenantsByLabel()
    {
        QFETCH(QSize, size);
        mWindow->resize(size);
        QApplication::setActiveWindow(mWindow.get());
        const std::size_t before = libraryCount();
        ui::ImportClusterDialog* d = openDialog();
        // The whole dialog, its Import button included, is on the window's screen area.
        QVERIFY2(d->frameGeometry().width() <= size.width() && d->frameGeometry().height() <= size.height(),
                 qPrintable(QString("%1x%2").arg(d->frameGeometry().width()).arg(d->frameGeometry().height())));
        QPushButton* import = child<QPushButton>(d, "ImportButton");
        QVERIFY(import->isVisible());

        typeInto(child<QLineEdit>(d, "ImportKubernetesFile"), fixture("kubernetes/cluster.json"));
        choose(child<QComboBox>(d, "ImportTenants"), 1); // by pod label
        QLineEdit* label = child<QLineEdit>(d, "ImportTenantLabel");
        QVERIFY(label->isVisible());
        typeInto(label, "team");
        typeInto(child<QLineEdit>(d, "ImportName"), "Prod " + QString::number(size.width()));
        QTest::mouseClick(import, Qt::LeftButton);
        QTRY_VERIFY(!mWindow->files()->importClusterDialog());

        // Saved as a new library scenario and open in the workbench.
        QCOMPARE(libraryCount(), before + 1);
        const document::Document* doc = mWindow->currentDocument();
        QVERIFY(doc);
        const Scenario& s = doc->scenario();
        QCOMPARE(s.name, "Prod " + std::to_string(size.width()));
        QCOMPARE(s.topology.nodes.size(), std::size_t(5));
        std::vector<std::string> tenants;
        for (const Tenant& t : s.tenants)
            tenants.push_back(t.name);
        std::sort(tenants.begin(), tenants.end());
        QCOMPARE(tenants, (std::vector<std::string>{"default", "nlp", "product", "search"}));
        QVERIFY(s.tenants.front().jobs.front().imported);
        // The placeholders are visible over the canvas once the plan is evaluated.
        QTRY_VERIFY_WITH_TIMEOUT(mWindow->canvasView()->warnings().join('\n').contains(
                                     "7 imported job(s) run on placeholders the cluster does not say"),
                                 20000);
    }

    void importsSlurmWithAGpuName()
    {
        mWindow->resize(1366, 768);
        ui::ImportClusterDialog* d = openDialog();
        choose(child<QComboBox>(d, "ImportSource"), 2); // Slurm output
        typeInto(child<QLineEdit>(d, "ImportSlurmNodes"), fixture("slurm/sinfo.json"));
        typeInto(child<QLineEdit>(d, "ImportSlurmJobs"), fixture("slurm/squeue.json"));
        QPushButton* import = child<QPushButton>(d, "ImportButton");

        // Slurm's GRES type "h100" could be any H100: refused, saying how to name it.
        const std::size_t before = libraryCount();
        QTest::mouseClick(import, Qt::LeftButton);
        QLabel* message = child<QLabel>(d, "ImportMessage");
        QTRY_VERIFY2(message->text().contains("GPU product 'h100' is not a GPU gpuplan knows"),
                     qPrintable(message->text()));
        QVERIFY(mWindow->files()->importClusterDialog());
        QCOMPARE(libraryCount(), before);

        typeInto(child<QLineEdit>(d, "ImportGpuMap"), "h100=h100-80gb");
        QTest::mouseClick(import, Qt::LeftButton);
        QTRY_VERIFY(!mWindow->files()->importClusterDialog());
        QCOMPARE(libraryCount(), before + 1);
        const Scenario& s = mWindow->currentDocument()->scenario();
        QCOMPARE(s.topology.nodes.front().gpuCount, 5);
        std::vector<std::string> tenants;
        for (const Tenant& t : s.tenants)
            tenants.push_back(t.name);
        std::sort(tenants.begin(), tenants.end());
        QCOMPARE(tenants, (std::vector<std::string>{"product", "research"}));
    }

    void aTruncatedFileStaysInTheDialog()
    {
        const QString cut = mTmp.filePath("cut.json");
        QFile f(cut);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(readFile(fixture("kubernetes/cluster.json")).left(4000));
        f.close();
        const std::size_t before = libraryCount();
        ui::ImportClusterDialog* d = openDialog();
        typeInto(child<QLineEdit>(d, "ImportKubernetesFile"), cut);
        QTest::mouseClick(child<QPushButton>(d, "ImportButton"), Qt::LeftButton);
        QLabel* message = child<QLabel>(d, "ImportMessage");
        QTRY_VERIFY(!d->running());
        const QString text = message->text();
        QVERIFY2(text.contains("Nothing was imported") && text.contains(cut) && text.contains("line"),
                 qPrintable(text));
        QCOMPARE(libraryCount(), before);
        QTest::keyClick(d, Qt::Key_Escape);
        QTRY_VERIFY(!mWindow->files()->importClusterDialog());
        QCOMPARE(libraryCount(), before);
    }

    /// kubectl against an API server that takes the connection and never answers waits up to its
    /// 60 s request timeout: the dialog reads off the GUI thread, and Cancel kills kubectl.
    void aSilentClusterIsCancelledWhileTheWindowResponds()
    {
        // kubectl is no Debian 12 package (the fresh-root stage has none): without it the live
        // path cannot reach a server, so there is nothing to cancel.
        if (QStandardPaths::findExecutable("kubectl").isEmpty())
            QSKIP("kubectl is not installed");
        QTcpServer silent;
        QVERIFY(silent.listen(QHostAddress::LocalHost, 0));
        const QString kubeconfig = mTmp.filePath("kubeconfig");
        QFile f(kubeconfig);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QString("apiVersion: v1\nkind: Config\nclusters:\n- name: silent\n  cluster:\n    server: "
                        "http://127.0.0.1:%1\ncontexts:\n- name: silent\n  context:\n    cluster: silent\n    user: "
                        "nobody\ncurrent-context: silent\nusers:\n- name: nobody\n  user: {}\n")
                    .arg(silent.serverPort())
                    .toUtf8());
        f.close();
        const std::size_t before = libraryCount();
        ui::ImportClusterDialog* d = openDialog();
        choose(child<QComboBox>(d, "ImportSource"), 1); // the live cluster
        typeInto(child<QLineEdit>(d, "ImportKubeconfig"), kubeconfig);
        QTest::mouseClick(child<QPushButton>(d, "ImportButton"), Qt::LeftButton);
        QVERIFY(d->running());
        QVERIFY(child<QProgressBar>(d, "ImportBusy")->isVisible());
        QVERIFY(!child<QPushButton>(d, "ImportButton")->isEnabled());
        QLabel* message = child<QLabel>(d, "ImportMessage");
        QVERIFY2(message->text().startsWith("Asking the cluster through kubectl"), qPrintable(message->text()));
        if (const QString dir = qEnvironmentVariable("GPUPLAN_SCREENSHOTS"); !dir.isEmpty())
            d->grab().save(dir + "/import-cluster-busy.png");
        // kubectl reaches the server and waits; the GUI thread keeps turning meanwhile.
        QVERIFY(silent.waitForNewConnection(20000) || silent.hasPendingConnections());
        QTcpSocket* kubectl = silent.nextPendingConnection();
        QVERIFY(kubectl);
        const int ticks = test::guiThreadTicks(600);
        QVERIFY2(ticks >= 10, qPrintable(QString::number(ticks)));
        QVERIFY(d->running());
        QElapsedTimer t;
        t.start();
        QTest::mouseClick(child<QPushButton>(d, "ImportCancel"), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(!d->running(), 5000);
        QVERIFY2(t.elapsed() < 3000, qPrintable(QString::number(t.elapsed())));
        QCOMPARE(message->text(), QString("Cancelled: nothing was imported."));
        QVERIFY(mWindow->files()->importClusterDialog()); // still open, for another try
        QVERIFY(child<QPushButton>(d, "ImportButton")->isEnabled());
        // kubectl is gone: its connection closes.
        QTRY_VERIFY_WITH_TIMEOUT(kubectl->state() == QAbstractSocket::UnconnectedState || !kubectl->isValid() ||
                                     kubectl->waitForDisconnected(100),
                                 5000);
        QCOMPARE(libraryCount(), before);
        QTest::keyClick(d, Qt::Key_Escape);
        QTRY_VERIFY(!mWindow->files()->importClusterDialog());
        QCOMPARE(libraryCount(), before);
    }
};

QTEST_MAIN(TestImportClusterDialog)
#include "tst_importclusterdialog.moc"
