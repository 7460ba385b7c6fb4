// The workbench shell shows the library and the open scenario, and keeps the title true.
#include "document/librarygateway.h"
#include "testsupport.h"
#include "ui/librarypanel.h"
#include "ui/mainwindow.h"
#include "ui/scenariotree.h"

#include <QLabel>
#include <QTemporaryDir>
#include <QTreeWidget>
#include <QtTest>

using namespace gp;

class TestMainWindow : public QObject
{
    Q_OBJECT

    QTemporaryDir mTmp;

    std::unique_ptr<ui::MainWindow> makeWindow()
    {
        QString error;
        auto lib = document::openLibrary(mTmp.filePath("lib.sqlite"), test::bundledCatalog(),
                                         QDir(test::dataDir()).absoluteFilePath("samples"), &error);
        if (!lib)
            qFatal("%s", qPrintable(error));
        return std::make_unique<ui::MainWindow>(test::bundledCatalog(), std::move(lib));
    }

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void opensTheFirstLibraryScenario()
    {
        auto w = makeWindow();
        w->show();
        w->openFirst();
        QVERIFY(w->currentDocument());
        const QString name = QString::fromStdString(w->currentDocument()->scenario().name);
        QCOMPARE(w->windowTitle(), name + " — gpuplan");
        auto* panel = w->findChild<ui::LibraryPanel*>();
        QVERIFY(panel);
        QCOMPARE(panel->rowCount(), test::sampleFiles().size());
        bool summaryShown = false;
        for (auto* label : w->findChildren<QLabel*>())
            summaryShown |= label->text().contains("<b>64</b> GPUs on 8 nodes");
        QVERIFY(summaryShown); // the first sample is the 8-node DGX H100 pod
    }

    void outlineListsSharingPerGpu()
    {
        auto w = makeWindow();
        auto all = document::openLibrary(mTmp.filePath("lib.sqlite"), test::bundledCatalog(), {}, nullptr)->list();
        qint64 mixed = 0;
        for (const auto& s : *all)
            if (s.name == "Mixed sharing lab")
                mixed = s.id;
        QVERIFY(mixed > 0);
        QVERIFY(w->openFromLibrary(mixed));
        auto* tree = w->findChild<ui::ScenarioTree*>();
        QVERIFY(tree);
        const auto items = tree->findItems("GPU 4", Qt::MatchRecursive | Qt::MatchExactly);
        QStringList details;
        for (auto* i : items)
            details << i->text(1);
        QVERIFY2(details.contains("MIG 3g.20gb@0 + 2g.10gb@4 + 1g.5gb@6"), qPrintable(details.join(" | ")));
        QVERIFY(details.contains("time-slicing x4"));
        QVERIFY(details.contains("vGPU A100D-20C (equal_share)"));
        QVERIFY(details.contains("MPS 50% threads, 38 GiB limit"));
        QVERIFY(!w->currentDocument()->isModified());
    }

    void describeSharingCoversEveryMode()
    {
        QCOMPARE(ui::describeSharing({}), QString("bare metal (exclusive)"));
        SharingConfig p;
        p.mode = SharingMode::Passthrough;
        QCOMPARE(ui::describeSharing(p), QString("passthrough VM"));
    }
};

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
