// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include <functional>

namespace gp::calc {

/// Runs body(0), …, body(n − 1), possibly at the same time, and returns when all have run.
using ParallelFor = std::function<void(int n, const std::function<void(int)>& body)>;

/// How the CPU-heavy searches and the Monte Carlo spread their work over `workers` parts. By
/// default one std::thread per part and per core (the CLI); the workbench installs its thread
/// pool at start-up (document::poolParallelFor) so that every thread comes from one pool. Set it
/// before any such work runs.
void setParallelFor(ParallelFor parallelFor, int workers);

/// The number of parts work is split into: the installed workers, or the number of cores.
int parallelWorkers();

/// Runs body(0) … body(n − 1) on the installed parallel-for (threads by default).
void runParts(int n, const std::function<void(int)>& body);

} // namespace gp::calc
