// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// docs/architecture.md §1: nothing under core/ includes widgets, charts, graphics or icons; core/model,
// core/calc and core/sim include no Qt header at all. Link rules alone leak through
// transitive dependencies, so the sources are read.
#include "testsupport.h"

#include <QDirIterator>
#include <QFile>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTest>

namespace {

// (Plain string literals: moc's tokenizer mis-reads raw strings holding quotes and '#'.)
const QRegularExpression kInclude("^\\s*#\\s*include\\s*[<\"]([^>\"]+)[>\"]", QRegularExpression::MultilineOption);

/// Headers a file includes.
QStringList includesOf(const QString& text)
{
    QStringList out;
    for (auto it = kInclude.globalMatch(text); it.hasNext();)
        out << it.next().captured(1);
    return out;
}

bool isGuiHeader(const QString& h)
{
    static const QRegularExpression re(
        "^(QtWidgets|QtCharts|QGraphics|QWidget|QIcon|QMainWindow|QChart|QtSvgWidgets)|/(QWidget|QIcon|QGraphics)");
    return re.match(h).hasMatch();
}

bool isQtHeader(const QString& h) { return h.startsWith('Q') || h.startsWith("qt", Qt::CaseInsensitive); }

/// "file: header" for every include under core/`sub` that `bad` rejects.
QStringList violations(const QString& sub, bool (*bad)(const QString&))
{
    QStringList out;
    QDirIterator it(QDir(gp::test::sourceDir()).absoluteFilePath("core/" + sub), {"*.h", "*.cpp", "*.cu", "*.cuh"},
                    QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        QFile f(path);
        if (!f.open(QIODevice::ReadOnly))
            out << path + ": unreadable";
        for (const QString& h : includesOf(QString::fromUtf8(f.readAll())))
            if (bad(h))
                out << path + ": " + h;
    }
    return out;
}

} // namespace

class TestLayering : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void detectorCatchesViolations()
    {
        // The checks below are only worth something if the detector can fail.
        const QStringList inc =
            includesOf("#include <QtWidgets/QPushButton>\n  # include \"QGraphicsScene\"\n#include <vector>\n");
        QCOMPARE(inc.size(), 3);
        QVERIFY(isGuiHeader(inc[0]));
        QVERIFY(isGuiHeader(inc[1]));
        QVERIFY(!isGuiHeader(inc[2]));
        QVERIFY(isGuiHeader("QIcon"));
        QVERIFY(isQtHeader("QString"));
        QVERIFY(isQtHeader("QtCore/QJsonObject"));
        QVERIFY(!isQtHeader("vector"));
        QVERIFY(!isQtHeader("model/scenario.h"));
    }

    void coreHasNoGuiIncludes()
    {
        const QStringList v = violations("", isGuiHeader);
        QVERIFY2(v.isEmpty(), qPrintable(v.join('\n')));
    }

    void nothingInTheProductStartsAProgram()
    {
        // Issue 7: nothing read from a file is ever executed. The product starts no process
        // at all, so no scenario, catalog or trace field can reach one.
        static const QRegularExpression launch(
            "\\b(QProcess|popen|posix_spawn|execv|execl|execvp|execlp|system)\\s*[(:<]");
        QStringList hits;
        for (const char* dir : {"core", "ui", "app"}) {
            QDirIterator it(QDir(gp::test::sourceDir()).absoluteFilePath(dir), {"*.h", "*.cpp", "*.cu"}, QDir::Files,
                            QDirIterator::Subdirectories);
            while (it.hasNext()) {
                const QString path = it.next();
                QFile f(path);
                QVERIFY(f.open(QIODevice::ReadOnly));
                const QStringList lines = QString::fromUtf8(f.readAll()).split('\n');
                for (int i = 0; i < lines.size(); ++i)
                    if (launch.match(lines[i]).hasMatch() && !lines[i].trimmed().startsWith("//"))
                        hits << path + ":" + QString::number(i + 1) + ": " + lines[i].trimmed();
            }
        }
        QVERIFY2(hits.isEmpty(), qPrintable(hits.join('\n')));
        QVERIFY(launch.match("QProcess::execute(x)").hasMatch() && launch.match("std::system(cmd)").hasMatch());
    }

    void pureLayersHaveNoQt()
    {
        int files = 0;
        for (const char* sub : {"model", "calc", "sim"}) {
            const QStringList v = violations(sub, isQtHeader);
            QVERIFY2(v.isEmpty(), qPrintable(v.join('\n')));
            QDirIterator it(QDir(gp::test::sourceDir()).absoluteFilePath(QString("core/") + sub), {"*.h", "*.cpp"},
                            QDir::Files, QDirIterator::Subdirectories);
            while (it.hasNext()) {
                it.next();
                ++files;
            }
        }
        QVERIFY2(files > 10, "the scan found too few files: is GPUPLAN_SOURCE_DIR right?");
    }
};

QTEST_GUILESS_MAIN(TestLayering)
#include "tst_layering.moc"
