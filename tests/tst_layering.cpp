// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// docs/architecture.md §1: every include between layers follows one table of allowed edges; nothing
// under core/ includes widgets, charts, graphics or icons; core/model, core/calc and core/sim include
// no Qt header at all; only the library gateway saves to the library. Link rules alone leak through
// transitive dependencies, so the sources are read.
#include "testsupport.h"

#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTest>

#include <vector>

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

/// One layer: where its files are (the first folder that matches a file's path, in table order)
/// and the layers it may include besides itself.
struct Layer
{
    const char* name;
    QStringList folders;
    QStringList mayInclude;
};

/// The allowed edges (docs/architecture.md §1). A new edge is a design decision: write it there
/// first, then here.
const std::vector<Layer>& layers()
{
    static const std::vector<Layer> table{
        {"model", {"core/model/"}, {}},
        {"calc", {"core/calc/"}, {"model"}},
        {"sim", {"core/sim/"}, {"calc", "model"}},
        {"io", {"core/io/"}, {"model"}},
        {"store", {"core/store/"}, {"model"}},
        {"document", {"core/document/"}, {"store", "io", "sim", "calc", "model"}},
        {"telemetry", {"core/telemetry/"}, {"model"}},
        {"study", {"core/study/"}, {"document", "store", "io", "telemetry", "sim", "calc", "model"}},
        // The canvas scene and its items (gpuplan_canvas): what the workbench edits on and what
        // the report draws; the rest of ui/canvas (view, editor, tools, overlays) is the ui's.
        {"canvas",
         {"ui/canvas/canvasscene", "ui/canvas/canvasdecorations", "ui/canvas/canvasitem", "ui/canvas/nodeitem",
          "ui/canvas/switchitem", "ui/canvas/linkitem", "ui/canvas/linklayer", "ui/canvas/rackframeitem"},
         {"document", "store", "io", "sim", "calc", "model"}},
        // Chart builders, the report and the slides as functions of the results (gpuplan_figures):
        // what the CLI links for its reports instead of the whole ui; the report draws the canvas.
        {"figures", {"ui/figures/"}, {"canvas", "study", "io", "sim", "calc", "model"}},
        {"ui", {"ui/"}, {"figures", "canvas", "study", "document", "store", "io", "telemetry", "sim", "calc", "model"}},
        {"cli", {"app/cli/"}, {"figures", "study", "document", "store", "io", "telemetry", "sim", "calc", "model"}},
        {"app",
         {"app/"},
         {"ui", "figures", "canvas", "study", "document", "store", "io", "telemetry", "sim", "calc", "model"}},
    };
    return table;
}

/// Single headers a layer may include outside its edges, each with its reason.
struct Exception
{
    const char* from;
    const char* header; ///< the included file, from the source root
    const char* why;
};

const std::vector<Exception>& exceptions()
{
    // None today: the CLI's report, sweep and replay charts come from figures (issue 35).
    static const std::vector<Exception> table{};
    return table;
}

const Layer* layerOf(const QString& relativePath)
{
    for (const Layer& l : layers())
        for (const QString& f : l.folders)
            if (relativePath.startsWith(f))
                return &l;
    return nullptr;
}

/// The project file an include names, relative to the source root: beside the including file
/// first, then under core/ and the root (the include directories the targets add); empty for a
/// system, Qt or generated header.
QString resolveInclude(const QDir& root, const QString& includer, const QString& header)
{
    const QString here = QFileInfo(root.absoluteFilePath(includer)).absolutePath();
    for (const QString& base : {here, root.absoluteFilePath("core"), root.absolutePath()}) {
        const QString candidate = QDir::cleanPath(base + '/' + header);
        if (QFileInfo(candidate).isFile())
            return root.relativeFilePath(candidate);
    }
    return {};
}

/// Why `includer` may not include `target` (both relative to the root), or empty when it may.
QString edgeProblem(const QString& includer, const QString& target)
{
    const Layer* from = layerOf(includer);
    const Layer* to = layerOf(target);
    if (!from)
        return includer + ": in no layer of the table (tests/tst_layering.cpp layers())";
    if (!to || from == to || from->mayInclude.contains(to->name))
        return {};
    for (const Exception& e : exceptions())
        if (from->name == QLatin1String(e.from) && target == QLatin1String(e.header))
            return {};
    return QString(
               "%1: %2 -> %3 (%4) is not an allowed edge (tests/tst_layering.cpp layers(), docs/architecture.md §1)")
        .arg(includer, from->name, to->name, target);
}

/// Every include of a project file in core/, ui/ and app/ that the table does not allow.
QStringList layeringViolations(int* files)
{
    const QDir root(gp::test::sourceDir());
    QStringList out;
    static const QRegularExpression quoted("^\\s*#\\s*include\\s*\"([^\"]+)\"", QRegularExpression::MultilineOption);
    for (const char* top : {"core", "ui", "app"}) {
        QDirIterator it(root.absoluteFilePath(top), {"*.h", "*.cpp", "*.cu", "*.cuh"}, QDir::Files,
                        QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QString path = root.relativeFilePath(it.next());
            ++*files;
            QFile f(root.absoluteFilePath(path));
            if (!f.open(QIODevice::ReadOnly)) {
                out << path + ": unreadable";
                continue;
            }
            if (!layerOf(path))
                out << edgeProblem(path, path);
            for (auto m = quoted.globalMatch(QString::fromUtf8(f.readAll())); m.hasNext();)
                if (const QString target = resolveInclude(root, path, m.next().captured(1)); !target.isEmpty())
                    if (const QString why = edgeProblem(path, target); !why.isEmpty())
                        out << why;
        }
    }
    out.removeDuplicates();
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

    void edgeTableCatchesWrongIncludes()
    {
        // The table check below is only worth something if it can fail.
        QCOMPARE(QString(layerOf("core/calc/evaluate.cpp")->name), QString("calc"));
        QCOMPARE(QString(layerOf("core/sim/cuda/kernels.cu")->name), QString("sim"));
        QCOMPARE(QString(layerOf("ui/canvas/canvasview.cpp")->name), QString("ui"));
        QCOMPARE(QString(layerOf("ui/canvas/nodeitem.cpp")->name), QString("canvas"));
        QCOMPARE(QString(layerOf("ui/figures/costchart.cpp")->name), QString("figures"));
        QCOMPARE(QString(layerOf("app/cli/cmdreport.cpp")->name), QString("cli"));
        QCOMPARE(QString(layerOf("app/gui/main.cpp")->name), QString("app"));
        QVERIFY(!layerOf("tools/x.cpp"));
        QVERIFY(edgeProblem("core/study/sweeprun.cpp", "core/document/edit.h").isEmpty());
        QVERIFY(edgeProblem("app/gui/main.cpp", "ui/mainwindow.h").isEmpty());
        QVERIFY(edgeProblem("app/cli/cmdreport.cpp", "ui/figures/reportwriter.h").isEmpty());
        QVERIFY(edgeProblem("ui/figures/planfigures.cpp", "ui/canvas/canvasscene.h").isEmpty());
        QVERIFY(!edgeProblem("app/cli/cmdreport.cpp", "ui/results/resultscharts.h").isEmpty());
        QVERIFY(!edgeProblem("ui/canvas/nodeitem.cpp", "ui/palette.h").isEmpty()); // canvas sits below ui
        QVERIFY(!edgeProblem("ui/canvas/canvasscene.cpp", "ui/figures/planfigures.h").isEmpty());
        QVERIFY(edgeProblem("ui/studies/sweepdialog.cpp", "ui/figures/sweepfigures.h").isEmpty());
        const QString up = edgeProblem("core/calc/evaluate.cpp", "core/document/document.h");
        QCOMPARE(up,
                 QString("core/calc/evaluate.cpp: calc -> document (core/document/document.h) is not an allowed edge "
                         "(tests/tst_layering.cpp layers(), docs/architecture.md §1)"));
        QVERIFY(!edgeProblem("core/document/document.cpp", "core/study/sweep.h").isEmpty()); // study sits above
        QVERIFY(!edgeProblem("core/io/scenarioreader.cpp", "core/sim/planresults.h").isEmpty());
        QVERIFY(!edgeProblem("app/cli/cmdevaluate.cpp", "ui/mainwindow.h").isEmpty()); // CLI -> ui: listed only
        QVERIFY(!edgeProblem("ui/figures/costchart.cpp", "ui/workbench.h").isEmpty());
        QVERIFY(!edgeProblem("core/model/x.cpp", "core/calc/evaluate.h").isEmpty());
        // Includes resolve beside the including file first, so a relative path is caught too.
        const QDir root(gp::test::sourceDir());
        QCOMPARE(resolveInclude(root, "core/calc/evaluate.cpp", "../document/document.h"),
                 QString("core/document/document.h"));
        QCOMPARE(resolveInclude(root, "app/cli/cmdlibrary.cpp", "document/librarygateway.h"),
                 QString("core/document/librarygateway.h"));
        QCOMPARE(resolveInclude(root, "ui/mainwindow.cpp", "workbench.h"), QString("ui/workbench.h"));
        QVERIFY(resolveInclude(root, "ui/mainwindow.cpp", "QMainWindow").isEmpty());
    }

    void includesFollowTheLayerTable()
    {
        int files = 0;
        const QStringList v = layeringViolations(&files);
        QVERIFY2(v.isEmpty(), qPrintable(v.join('\n')));
        QVERIFY2(files > 200, "the scan found too few files: is GPUPLAN_SOURCE_DIR right?");
    }

    void onlyTheLibraryGatewaySaves()
    {
        // docs/architecture.md §6: scenarios reach the library through core/document/librarygateway
        // (saveAsNew, saveRevision, openLibrary's seeding) and nothing else, workbench or CLI.
        static const QRegularExpression save("\\b(addRevision|createScenario|seedIfEmpty)\\s*\\(");
        const QDir root(gp::test::sourceDir());
        QStringList hits;
        for (const char* dir : {"core", "ui", "app"}) {
            QDirIterator it(root.absoluteFilePath(dir), {"*.h", "*.cpp"}, QDir::Files, QDirIterator::Subdirectories);
            while (it.hasNext()) {
                const QString path = root.relativeFilePath(it.next());
                if (path.startsWith("core/store/") || path == "core/document/librarygateway.cpp")
                    continue;
                QFile f(root.absoluteFilePath(path));
                QVERIFY(f.open(QIODevice::ReadOnly));
                if (save.match(QString::fromUtf8(f.readAll())).hasMatch())
                    hits << path;
            }
        }
        QVERIFY2(hits.isEmpty(), qPrintable("saves to the library past the gateway: " + hits.join(", ")));
        QVERIFY(save.match("lib.addRevision(id, doc)").hasMatch());
    }

    void coreHasNoGuiIncludes()
    {
        const QStringList v = violations("", isGuiHeader);
        QVERIFY2(v.isEmpty(), qPrintable(v.join('\n')));
    }

    void nothingInTheProductStartsAProgram()
    {
        // Issue 7: nothing read from a file is ever executed. The product starts no process
        // but one, so no scenario, catalog or trace field can reach one. The exception (issue 38,
        // docs/architecture.md §9): the cluster import runs the cluster's own tools — kubectl,
        // sinfo, squeue, scontrol — by fixed names, with arguments as argv (no shell), from
        // core/study/clustercapture.cpp alone; checked below.
        static const QRegularExpression launch(
            "\\b(QProcess|popen|posix_spawn|execv|execl|execvp|execlp|system)\\s*[(:<]");
        const QString capture = QDir(gp::test::sourceDir()).absoluteFilePath("core/study/clustercapture.cpp");
        QStringList hits;
        for (const char* dir : {"core", "ui", "app"}) {
            QDirIterator it(QDir(gp::test::sourceDir()).absoluteFilePath(dir), {"*.h", "*.cpp", "*.cu"}, QDir::Files,
                            QDirIterator::Subdirectories);
            while (it.hasNext()) {
                const QString path = it.next();
                QFile f(path);
                QVERIFY(f.open(QIODevice::ReadOnly));
                const QString text = QString::fromUtf8(f.readAll());
                if (path == capture) {
                    // Every program it runs is a literal of the four, and it never starts a shell.
                    static const QRegularExpression tool("runClusterTool\\(\\s*\"([^\"]*)\"");
                    int tools = 0;
                    for (auto m = tool.globalMatch(text); m.hasNext(); ++tools) {
                        const QString name = m.next().captured(1);
                        if (!QStringList{"kubectl", "sinfo", "squeue", "scontrol"}.contains(name))
                            hits << path + ": runs '" + name + "'";
                    }
                    QVERIFY(tools >= 6);
                    if (text.count("p.start(") != 1 || text.contains("\"sh\"") || text.contains("\"-c\"") ||
                        text.contains("startDetached") || text.contains("std::system"))
                        hits << path + ": starts a program other than through runClusterTool";
                    continue;
                }
                const QStringList lines = text.split('\n');
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
