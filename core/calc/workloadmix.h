// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "slots.h"

#include "model/scenario.h"

#include <optional>
#include <vector>

namespace gp::calc {

/// What one job asks the cluster for: pp x dp groups of tp units, each unit needing
/// `bytesPerUnit` of GPU memory; a TP group (tp > 1) needs GPUs with NVLink peer access in
/// one NVLink domain of one node.
struct JobDemand
{
    int tenant = 0;
    int job = 0;
    int tp = 1;
    int groups = 1;
    double bytesPerUnit = 0.0;
    std::optional<Pin> pin;
};

/// The workload mix as the fragmentation measure of Weng et al. (USENIX ATC '23) sees it:
/// every demand's unit shape weighted by its number of units. unusableWeight() is the share
/// of the mix a free slot cannot serve (too small, or without peer access for TP groups).
class WorkloadMix
{
public:
    WorkloadMix() = default;
    explicit WorkloadMix(const std::vector<JobDemand>& demands);
    double unusableWeight(const Slot& slot) const;
    /// As above, also counting TP types that need more free peer-capable GPUs in one NVLink
    /// domain than the slot's domain has (`freeGpusInDomain`).
    double unusableWeight(const Slot& slot, int freeGpusInDomain) const;

private:
    /// TP types by degree: unit sizes ascending and the share of the mix up to each size.
    struct TpGroup
    {
        int tp;
        std::vector<double> bytes;
        std::vector<double> weightAtMost; // [i]: share of the i smallest
    };
    std::vector<TpGroup> mTpGroups = {};
    std::vector<double> mBytes = {};             // unit sizes, ascending
    std::vector<double> mWeightAbove = {0.0};    // [i]: share of units from the i-th size up
    std::vector<double> mTpBytes = {};           // TP>1 unit sizes, ascending
    std::vector<double> mTpWeightAtMost = {0.0}; // [i]: share of the i smallest TP>1 units
};

} // namespace gp::calc
