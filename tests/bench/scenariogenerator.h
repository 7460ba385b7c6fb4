// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "model/catalog.h"
#include "model/scenario.h"

namespace gp::bench {

/// A large, deterministic scenario for benchmarks: `nodes` DGX H100 nodes under leaf
/// switches of 16 nodes and 16 spines, most GPUs bare metal and the rest MIG, time-sliced
/// or MPS, and `tenants` x `jobsPerTenant` jobs of every kind (seeded, reproducible).
Scenario generateCluster(const Catalog& catalog, int nodes, int tenants, int jobsPerTenant, unsigned seed = 1);

} // namespace gp::bench
