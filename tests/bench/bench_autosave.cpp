// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// Benchmark of one autosave as the workbench does it (document::Autosaver): on the GUI
// thread the scenario is copied, on a pool thread the copy is written as JSON, and back on
// the GUI thread the draft is replaced in the library in one transaction
// (docs/performance.md). Here all three run in turn on one thread. Not a test: it measures
// and prints.
//
//   bench_autosave [--scenario FILE] [--iterations I]     (default: the 250-node sample)
#include "io/catalogreader.h"
#include "io/datapaths.h"
#include "io/scenarioreader.h"
#include "io/scenariowriter.h"
#include "store/scenariolibrary.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QStringList>
#include <QTemporaryDir>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <vector>

namespace {

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    QString file = QDir(gp::io::bundledDataDir()).absoluteFilePath("samples/04-cluster-250-node-h100.json");
    int iterations = 50;
    const QStringList args = QCoreApplication::arguments();
    for (int i = 1; i + 1 < args.size(); i += 2) {
        if (args[i] == "--scenario")
            file = args[i + 1];
        else if (args[i] == "--iterations")
            iterations = std::max(1, args[i + 1].toInt());
    }
    const auto cat = gp::io::loadCatalog(gp::io::bundledDataDir());
    if (!cat) {
        std::fprintf(stderr, "%s\n", cat.errorText().c_str());
        return 1;
    }
    const auto read = gp::io::readScenarioFile(file, *cat);
    if (!read.ok()) {
        std::fprintf(stderr, "cannot read %s\n", qPrintable(file));
        return 1;
    }
    QTemporaryDir tmp;
    auto opened = gp::store::ScenarioLibrary::open(tmp.filePath("bench.sqlite"));
    if (!opened) {
        std::fprintf(stderr, "%s\n", opened.errorText().c_str());
        return 1;
    }
    gp::store::ScenarioLibrary* lib = opened->get();
    using Clock = std::chrono::steady_clock;
    auto ms = [](Clock::duration d) { return std::chrono::duration<double, std::milli>(d).count(); };
    std::vector<double> copyMs, writeMs, saveMs;
    std::size_t bytes = 0;
    for (int i = 0; i < iterations; ++i) {
        const auto tc = Clock::now();
        const auto copy = std::make_shared<const gp::Scenario>(*read.value);
        const auto t0 = Clock::now();
        gp::store::Draft d;
        d.session = "bench";
        d.name = QString::fromStdString(copy->name);
        d.document = gp::io::writeScenario(*copy);
        const auto t1 = Clock::now();
        if (const gp::Status saved = lib->saveDraft(d); !saved) {
            std::fprintf(stderr, "%s\n", saved.errorText().c_str());
            return 1;
        }
        const auto t2 = Clock::now();
        copyMs.push_back(ms(t0 - tc));
        writeMs.push_back(ms(t1 - t0));
        saveMs.push_back(ms(t2 - t1));
        bytes = static_cast<std::size_t>(d.document.size());
    }
    std::printf("autosave of %s (%zu nodes, %zu bytes of JSON), %d iterations\n",
                qPrintable(QFileInfo(file).fileName()), read.value->topology.nodes.size(), bytes, iterations);
    std::printf("  copy scenario   median %.2f ms  (min %.2f, max %.2f)  GUI thread\n", median(copyMs),
                *std::min_element(copyMs.begin(), copyMs.end()), *std::max_element(copyMs.begin(), copyMs.end()));
    std::printf("  write JSON      median %.2f ms  (min %.2f, max %.2f)  pool thread\n", median(writeMs),
                *std::min_element(writeMs.begin(), writeMs.end()), *std::max_element(writeMs.begin(), writeMs.end()));
    std::printf("  draft to SQLite median %.2f ms  (min %.2f, max %.2f)  GUI thread\n", median(saveMs),
                *std::min_element(saveMs.begin(), saveMs.end()), *std::max_element(saveMs.begin(), saveMs.end()));
    return 0;
}
