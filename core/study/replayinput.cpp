// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "replayinput.h"

#include "io/datapaths.h"
#include "io/tracereader.h"
#include "sim/replay.h"
#include "sim/scenariotrace.h"

#include <QDir>
#include <QFileInfo>

namespace gp::study {

namespace {

/// The size check both sources share: a tiny mean request against a huge cluster would place
/// tens of millions of tasks.
void checkSize(ReplayInput& in, double inflate)
{
    const double expected = sim::expectedReplayTasks(in.tasks, in.gpus() * 1000.0, inflate);
    if (expected > static_cast<double>(sim::kMaxReplayTasks))
        in.issues.push_back(
            {Issue::Severity::Error, "",
             QString("the replay would place about %1 tasks (%2 × the nodes' GPU capacity at the file's mean request); "
                     "at most %3")
                 .arg(expected, 0, 'f', 0)
                 .arg(inflate)
                 .arg(sim::kMaxReplayTasks)
                 .toStdString(),
             in.name.toStdString()});
}

} // namespace

double ReplayInput::gpus() const
{
    double g = 0.0;
    for (const TraceNode& n : nodes)
        g += n.gpus;
    return g;
}

ReplayInput readTraceInput(const QString& nodesCsv, const QString& tasksCsv, double inflate)
{
    ReplayInput in;
    in.name = tasksCsv;
    Result<std::vector<TraceNode>> nodes = io::readTraceNodes(nodesCsv);
    Result<std::vector<TraceTask>> tasks = io::readTraceTasks(tasksCsv);
    in.issues.insert(in.issues.end(), nodes.issues.begin(), nodes.issues.end());
    in.issues.insert(in.issues.end(), tasks.issues.begin(), tasks.issues.end());
    if (!nodes || !tasks)
        return in;
    in.nodes = std::move(*nodes);
    in.tasks = std::move(*tasks);
    const Issues models = io::checkTaskModels(in.tasks, in.nodes, tasksCsv);
    in.issues.insert(in.issues.end(), models.begin(), models.end());
    checkSize(in, inflate);
    return in;
}

ReplayInput scenarioInput(const Scenario& scenario, const Catalog& catalog, const QString& name, double inflate)
{
    ReplayInput in;
    in.name = name;
    sim::ScenarioTrace trace = sim::traceOfScenario(scenario, catalog);
    if (trace.tasks.empty()) {
        in.issues.push_back(
            {Issue::Severity::Error, "", "no job of the scenario has a model to size it by", name.toStdString()});
        return in;
    }
    in.nodes = std::move(trace.nodes);
    in.tasks = std::move(trace.tasks);
    checkSize(in, inflate);
    return in;
}

QString defaultTraceDirectory()
{
    if (QString env = qEnvironmentVariable("GPUPLAN_TRACE_DIR"); !env.isEmpty() && QFileInfo(env).isDir())
        return env;
    // The data folder sits next to the project's (or the installation's) own data folder.
    const QDir data(io::bundledDataDir());
    for (const char* relative :
         {"../../shared/data/traces/alibaba-gpu-v2023/csv", "../shared/data/traces/alibaba-gpu-v2023/csv"}) {
        QString candidate = QDir::cleanPath(data.absoluteFilePath(relative));
        if (QFileInfo(candidate + "/openb_node_list_gpu_node.csv").isFile())
            return candidate;
    }
    return {};
}

} // namespace gp::study
