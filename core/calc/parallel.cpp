// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "parallel.h"

#include <algorithm>
#include <thread>
#include <vector>

namespace gp::calc {

namespace {

ParallelFor gParallelFor; // empty: one std::thread per part
int gWorkers = 0;         // 0: the number of cores

} // namespace

void setParallelFor(ParallelFor parallelFor, int workers)
{
    gParallelFor = std::move(parallelFor);
    gWorkers = workers;
}

int parallelWorkers()
{
    return gWorkers > 0 ? gWorkers : std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
}

void runParts(int n, const std::function<void(int)>& body)
{
    if (gParallelFor) {
        gParallelFor(n, body);
        return;
    }
    std::vector<std::thread> threads;
    for (int t = 1; t < n; ++t)
        threads.emplace_back(body, t);
    if (n > 0)
        body(0);
    for (auto& th : threads)
        th.join();
}

} // namespace gp::calc
