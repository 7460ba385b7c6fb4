// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// A process for tests to kill (tst_recovery): it does real work on a library and says on
// stdout, line by line, what it has committed, so the killer knows what must survive.
//   crashchild workbench DB   the workbench on DB, adding a node every 60 ms; prints
//                             "draft N" each time the library's draft holds N nodes
//   crashchild saves DB       adds revisions to scenario 1 of DB without pause; prints
//                             "committed N" after revision N is committed
//   crashchild team DB W N    teammate W: N saves to scenario 1 of DB (a file or a server),
//                             each from the latest revision it read; prints "committed R W S"
//                             for step S saved as revision R, "conflict W S" for one refused
#include "crashprotocol.h"
#include "document/autosaver.h"
#include "document/librarygateway.h"
#include "io/catalogreader.h"
#include "io/datapaths.h"
#include "io/scenarioreader.h"
#include "ui/canvas/canvaseditor.h"
#include "ui/canvas/canvasview.h"
#include "ui/library/librarycontroller.h"
#include "ui/mainwindow.h"

#include <QApplication>
#include <QTimer>

#include <cstdio>

namespace {

using gp::test::revisionDocument;

int workbench(const QString& db)
{
    auto cat = gp::io::loadCatalog(gp::io::bundledDataDir(), {});
    if (!cat) {
        std::fprintf(stderr, "%s\n", cat.errorText().c_str());
        return 1;
    }
    auto lib = gp::document::openLibrary(db, *cat, {});
    if (!lib) {
        std::fprintf(stderr, "%s\n", lib.errorText().c_str());
        return 1;
    }
    auto* window = new gp::ui::MainWindow(std::move(*cat.value), std::move(*lib));
    window->show();
    window->files()->openFirst();
    window->autosaver()->setDelayMs(150);
    // What the library holds now (the JSON is written in the background from a copy, so
    // the open document may be an edit ahead of it).
    QObject::connect(window->autosaver(), &gp::document::Autosaver::draftSaved, window, [window] {
        const auto drafts = window->library()->drafts();
        if (!drafts || drafts->empty())
            return;
        std::printf("draft %lld\n", static_cast<long long>(gp::test::nodeCountOf(drafts->front().document)));
        std::fflush(stdout);
    });
    auto* edits = new QTimer(window);
    int step = 0;
    QObject::connect(edits, &QTimer::timeout, window, [window, &step] {
        ++step;
        window->canvasView()->editor()->addFromTemplate("node:dgx-h100",
                                                        QPointF(100.0 * (step % 20), 900.0 + 120.0 * (step / 20)));
    });
    edits->start(60);
    return QApplication::exec();
}

int saves(const QString& db)
{
    auto opened = gp::store::ScenarioLibrary::open(db);
    if (!opened) {
        std::fprintf(stderr, "%s\n", opened.errorText().c_str());
        return 1;
    }
    gp::store::ScenarioLibrary* lib = opened->get();
    if (lib->scenarioCount().value.value_or(0) == 0 &&
        !lib->createScenario("kill test", "", revisionDocument(1), "1", {{"n", 1}}))
        return 1;
    for (;;) {
        const int next = lib->revisions(1)->back().number + 1;
        const auto n = lib->addRevision(1, revisionDocument(next), QString::number(next), {{"n", next}});
        if (!n || *n != next) {
            std::fprintf(stderr, "%s\n", n.errorText().c_str());
            return 1;
        }
        std::printf("committed %d\n", *n);
        std::fflush(stdout);
    }
}

int teammate(const QString& db, int worker, int steps)
{
    auto opened = gp::store::ScenarioLibrary::open(db);
    if (!opened) {
        std::fprintf(stderr, "%s\n", opened.errorText().c_str());
        return 1;
    }
    gp::store::ScenarioLibrary* lib = opened->get();
    for (int step = 1; step <= steps; ++step) {
        const auto summary = lib->scenario(1);
        if (!summary) {
            std::fprintf(stderr, "%s\n", summary.errorText().c_str());
            return 1;
        }
        const QByteArray doc = QString("{\"worker\": %1, \"step\": %2}").arg(worker).arg(step).toUtf8();
        const auto n = lib->addRevision(1, doc, QString("%1/%2").arg(worker).arg(step), {{"worker", worker}},
                                        summary->latest.number);
        if (n)
            std::printf("committed %d %d %d\n", *n, worker, step);
        else if (gp::store::ScenarioLibrary::isConflict(n.issues))
            std::printf("conflict %d %d\n", worker, step);
        else {
            std::fprintf(stderr, "%s\n", n.errorText().c_str());
            return 1;
        }
        std::fflush(stdout);
    }
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    const QStringList args = QApplication::arguments();
    if (args.size() == 3 && args[1] == "workbench")
        return workbench(args[2]);
    if (args.size() == 3 && args[1] == "saves")
        return saves(args[2]);
    if (args.size() == 5 && args[1] == "team")
        return teammate(args[2], args[3].toInt(), args[4].toInt());
    std::fprintf(stderr, "usage: crashchild workbench|saves DB, or crashchild team DB WORKER STEPS\n");
    return 2;
}
