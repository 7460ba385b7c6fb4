// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// File > Export KAI Objects… as a user drives it: the menu action, the folder dialog, the files
// written (and valid, tests/data/schemas), and a folder that cannot take them reported in a
// message box with nothing changed.
#include "clirunner.h"
#include "exportcheck.h"
#include "guidriver.h"
#include "windowfixture.h"

#include <QAction>
#include <QDir>
#include <QFileDialog>
#include <QMenuBar>
#include <QMessageBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace gp;

namespace {

/// The File menu's action whose text is `text`; the test stops when there is none.
QAction* fileAction(ui::MainWindow& w, const QString& text)
{
    for (QAction* m : w.menuBar()->actions())
        if (m->menu() && m->text() == QString("&File"))
            for (QAction* a : m->menu()->actions())
                if (a->text() == text)
                    return a;
    qFatal("no File > %s", qPrintable(text));
}

/// Chooses `dir` in the next folder dialog: opens it there and presses Choose.
std::shared_ptr<bool> chooseFolder(const QString& dir)
{
    return test::onNextModal({}, [dir](QDialog* d) {
        auto* fd = qobject_cast<QFileDialog*>(d);
        if (!fd)
            qFatal("not a file dialog: %s", d->metaObject()->className());
        fd->setDirectory(dir);
        d->accept(); // QDialog's public accept(): QFileDialog's checks the folder first
    });
}

} // namespace

class TestKaiExportMenu : public QObject
{
    Q_OBJECT

    QTemporaryDir mTmp;

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void exportsIntoTheChosenFolder()
    {
        auto w = test::makeWindow(mTmp.filePath("lib.sqlite"));
        w->show();
        w->files()->openFirst();
        QDir(mTmp.path()).mkdir("out");
        const QString out = mTmp.filePath("out");
        auto chosen = chooseFolder(out);
        fileAction(*w, QString::fromUtf8("Export &KAI Objects\u2026"))->trigger();
        QVERIFY(*chosen);
        QVERIFY(QFileInfo::exists(out + "/kai/queues.yaml"));
        QVERIFY(QFileInfo::exists(out + "/kai/README.md"));
        QVERIFY(!QFileInfo::exists(out + "/dra") && !QFileInfo::exists(out + "/README.md"));
        const test::Check c = test::validateExport(out);
        QVERIFY2(c.code == 0, qPrintable(c.output));
    }

    /// A file where the export's kai/ folder belongs: "Cannot export" naming the path, and the
    /// folder as it was (nothing created, the file untouched).
    void aFolderThatCannotTakeItIsReported()
    {
        auto w = test::makeWindow(mTmp.filePath("lib2.sqlite"));
        w->show();
        w->files()->openFirst();
        QDir(mTmp.path()).mkdir("blocked");
        const QString blocked = mTmp.filePath("blocked");
        QFile f(blocked + "/kai");
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("not a folder\n");
        f.close();
        QString shown;
        auto chosen = test::onNextModal({}, [blocked, &shown](QDialog* d) {
            static_cast<QFileDialog*>(d)->setDirectory(blocked);
            // The message box comes once the folder is chosen.
            test::onNextModal({}, [&shown](QDialog* box) {
                auto* m = qobject_cast<QMessageBox*>(box);
                shown = m ? m->windowTitle() + ": " + m->text() : QString("not a message box");
                box->reject();
            });
            d->accept();
        });
        fileAction(*w, QString::fromUtf8("Export &KAI Objects\u2026"))->trigger();
        QVERIFY(*chosen);
        QVERIFY(QTest::qWaitFor([&shown] { return !shown.isEmpty(); }, 20000));
        QVERIFY2(shown.startsWith("Cannot export: ") && shown.contains(blocked + "/kai"), qPrintable(shown));
        QCOMPARE(QDir(blocked).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot), QStringList{"kai"});
        QCOMPARE(test::readAll(blocked + "/kai"), QByteArray("not a folder\n"));
    }
};

QTEST_MAIN(TestKaiExportMenu)
#include "tst_kaiexportmenu.moc"
