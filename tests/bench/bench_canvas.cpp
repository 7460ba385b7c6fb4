// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// Benchmark of drawing the cluster canvas for a generated 1,024-node / 8,192-GPU cluster with
// 2,000 jobs (docs/performance.md): the time to repaint a 1600 x 1000 view (a synchronous
// paint event of the viewport, the path a user's pan takes) at three zoom levels — everything
// in view (nodes collapse to summaries), a rack-sized view, and 1:1 with every GPU slot
// drawn — while panning 40 pixels per frame, as a mouse drag does; and, for the zoom, one
// frame per wheel step. Then one property edit (a node's sharing, pushed on the document as
// the Inspector does): the canvas updating only the item the change names, against the full
// rebuild every edit used to cost. Offscreen raster; not a test: it measures and prints.
//
// The cluster is laid out as Edit > Arrange as Fabric does (spines over leaves over racks, the
// spine links bundled); --layout grid keeps the generator's dense grid instead.
//
//   bench_canvas [--nodes N] [--frames F] [--layout fabric|grid]
#include "calc/evaluate.h"
#include "document/commands.h"
#include "document/document.h"
#include "document/fabriclayout.h"
#include "io/catalogreader.h"
#include "io/datapaths.h"
#include "scenariogenerator.h"
#include "ui/canvas/canvasscene.h"
#include "ui/canvas/canvasview.h"

#include <QApplication>
#include <QScrollBar>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

int main(int argc, char** argv)
{
    qputenv("QT_QPA_PLATFORM", qgetenv("QT_QPA_PLATFORM").isEmpty() ? "offscreen" : qgetenv("QT_QPA_PLATFORM"));
    QApplication app(argc, argv);
    int nodes = 1024, frames = 30;
    bool fabric = true;
    const QStringList args = QCoreApplication::arguments();
    for (int i = 1; i + 1 < args.size(); i += 2) {
        if (args[i] == "--nodes")
            nodes = std::max(1, args[i + 1].toInt());
        else if (args[i] == "--frames")
            frames = std::max(1, args[i + 1].toInt());
        else if (args[i] == "--layout")
            fabric = args[i + 1] != "grid";
    }
    const auto cat = gp::io::loadCatalog(gp::io::bundledDataDir());
    if (!cat.ok()) {
        std::fprintf(stderr, "catalog does not load\n");
        return 1;
    }
    gp::Scenario s = gp::bench::generateCluster(*cat, nodes, 50, 40);
    if (fabric) {
        const auto at = gp::document::fabricLayout(s.topology);
        for (gp::Node& n : s.topology.nodes)
            n.position = at.at(n.id);
        for (gp::Switch& sw : s.topology.switches)
            sw.position = at.at(sw.id);
    }
    const gp::calc::Evaluation ev = gp::calc::evaluate(s, *cat);

    auto t0 = std::chrono::steady_clock::now();
    gp::ui::CanvasScene scene(*cat);
    scene.rebuild(s);
    scene.decorate(s, ev);
    const double buildMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    gp::ui::CanvasView view(&scene);
    view.resize(1600, 1000);
    view.show();
    QCoreApplication::processEvents();
    std::printf("canvas: %d nodes, %zu switches, %zu links (%s layout, %zu link bundles); scene built and decorated "
                "in %.1f ms\n",
                nodes, s.topology.switches.size(), s.topology.links.size(), fabric ? "fabric" : "grid",
                scene.bundles().size(), buildMs);

    const QRectF all = scene.contentBounds();
    auto repaintMs = [&view] {
        const auto start = std::chrono::steady_clock::now();
        view.viewport()->repaint();
        return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    };
    auto report = [frames](const char* what, std::vector<double> ms) {
        std::sort(ms.begin(), ms.end());
        std::printf("  %-32s frame median %6.1f ms, p90 %6.1f ms, max %6.1f ms (%d frames, %.0f fps at the median)\n",
                    what, ms[ms.size() / 2], ms[ms.size() * 9 / 10], ms.back(), frames,
                    1000.0 / std::max(ms[ms.size() / 2], 1e-3));
    };
    struct Level
    {
        const char* name;
        double scale; ///< 0: fit everything
    };
    for (const Level level : {Level{"fit all (summaries)", 0.0}, Level{"rack view (scale 0.35)", 0.35},
                              Level{"1:1 (every GPU slot)", 1.0}}) {
        view.resetTransform();
        if (level.scale == 0.0)
            view.fitAll();
        else
            view.scale(level.scale, level.scale);
        view.centerOn(all.center());
        repaintMs(); // first paint at this zoom fills the item caches
        std::vector<double> ms;
        for (int f = 0; f < frames; ++f) {
            view.horizontalScrollBar()->setValue(view.horizontalScrollBar()->value() + 40);
            ms.push_back(repaintMs());
        }
        report((std::string("pan, ") + level.name).c_str(), ms);
    }
    // Zooming with the wheel: from everything in view towards 1:1, one frame per step.
    view.resetTransform();
    view.fitAll();
    view.centerOn(all.center());
    std::vector<double> zoom;
    for (int f = 0; f < frames; ++f) {
        view.zoomBy(std::pow(1.0 / view.transform().m11(), 1.0 / (frames - f))); // reaches 1:1 at the last frame
        zoom.push_back(repaintMs());
    }
    report("zoom from fit to 1:1", zoom);

    // One property edit: the rule (validated), the document's push, and the canvas's update.
    gp::document::Document doc(s);
    std::vector<double> ruleMs, syncMs, rebuildMs;
    QObject::connect(&doc, &gp::document::Document::changed, &scene, [&](const gp::document::Changes& changes) {
        const auto start = std::chrono::steady_clock::now();
        scene.applyChanges(doc.scenario(), changes);
        syncMs.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    });
    const std::string nodeId = s.topology.nodes[s.topology.nodes.size() / 2].id;
    for (int f = 0; f < frames; ++f) {
        gp::SharingConfig cfg;
        cfg.mode = f % 2 == 0 ? gp::SharingMode::TimeSlicing : gp::SharingMode::Exclusive;
        cfg.replicas = f % 2 == 0 ? 2 : 1;
        auto start = std::chrono::steady_clock::now();
        gp::Result<gp::document::Edit> edit = gp::document::setNodeSharing(doc.scenario(), *cat, {nodeId}, cfg);
        ruleMs.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
        if (!edit.ok()) {
            std::fprintf(stderr, "the edit is refused: %s\n", gp::issueLines(edit.issues).c_str());
            return 1;
        }
        doc.push(std::move(edit));
        start = std::chrono::steady_clock::now();
        scene.rebuild(doc.scenario()); // what every edit cost before
        rebuildMs.push_back(
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    }
    auto edits = [](const char* what, std::vector<double> ms) {
        std::sort(ms.begin(), ms.end());
        std::printf("  %-32s median %6.2f ms, p90 %6.2f ms, max %6.2f ms (%zu edits)\n", what, ms[ms.size() / 2],
                    ms[ms.size() * 9 / 10], ms.back(), ms.size());
    };
    edits("edit: rule + validation", ruleMs);
    edits("edit: canvas update by id", syncMs);
    edits("edit: canvas rebuild (before)", rebuildMs);
    std::vector<double> decorateMs; // what both paths do once the edit's evaluation arrives
    for (int f = 0; f < std::max(3, frames / 4); ++f) {
        const auto start = std::chrono::steady_clock::now();
        scene.decorate(doc.scenario(), ev);
        decorateMs.push_back(
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    }
    edits("evaluation arrives: decorate", decorateMs);
    return 0;
}
