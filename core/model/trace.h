// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include <string>
#include <vector>

namespace gp {

/// A GPU node of the Alibaba GPU-sharing trace v2023 (openb_node_list_*.csv).
struct TraceNode
{
    std::string name;
    int cpuMilli = 0;
    long long memoryMib = 0;
    int gpus = 0;
    std::string model;
};

/// A task (pod) of the trace: num_gpu GPUs, each at gpu_milli thousandths (sharing tasks ask
/// for one GPU below 1000; multi-GPU tasks for whole GPUs; CPU-only tasks for none).
struct TraceTask
{
    std::string name;
    int cpuMilli = 0;
    long long memoryMib = 0;
    int numGpu = 0;
    int gpuMilli = 0;
    std::vector<std::string> gpuSpec; ///< allowed GPU models; empty = any
    int line = 0;                     ///< in its file, for messages (0: not from a file)

    bool sharing() const { return numGpu == 1 && gpuMilli < 1000; }
    int gpuRequestMilli() const { return numGpu * gpuMilli; }
};

} // namespace gp
