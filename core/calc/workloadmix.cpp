// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "workloadmix.h"

#include <algorithm>
#include <map>

namespace gp::calc {

WorkloadMix::WorkloadMix(const std::vector<JobDemand>& demands)
{
    std::vector<std::pair<double, double>> all, tp;
    double total = 0.0;
    for (const JobDemand& d : demands) {
        const double w = static_cast<double>(d.tp) * d.groups;
        total += w;
        all.push_back({d.bytesPerUnit, w});
        if (d.tp > 1)
            tp.push_back({d.bytesPerUnit, w});
    }
    std::sort(all.begin(), all.end());
    std::sort(tp.begin(), tp.end());
    mWeightAbove.assign(all.size() + 1, 0.0);
    for (std::size_t i = all.size(); i-- > 0;)
        mWeightAbove[i] = mWeightAbove[i + 1] + (total > 0 ? all[i].second / total : 0.0);
    for (const auto& [b, w] : all)
        mBytes.push_back(b);
    std::map<int, std::vector<std::pair<double, double>>> byDegree;
    for (const JobDemand& d : demands)
        if (d.tp > 1)
            byDegree[d.tp].push_back({d.bytesPerUnit, total > 0 ? static_cast<double>(d.tp) * d.groups / total : 0.0});
    for (auto& [degree, list] : byDegree) {
        std::sort(list.begin(), list.end());
        TpGroup g{degree, {}, {0.0}};
        for (const auto& [b, w] : list) {
            g.bytes.push_back(b);
            g.weightAtMost.push_back(g.weightAtMost.back() + w);
        }
        mTpGroups.push_back(std::move(g));
    }
    mTpWeightAtMost.assign(tp.size() + 1, 0.0);
    for (std::size_t i = 0; i < tp.size(); ++i) {
        mTpBytes.push_back(tp[i].first);
        mTpWeightAtMost[i + 1] = mTpWeightAtMost[i] + (total > 0 ? tp[i].second / total : 0.0);
    }
}

double WorkloadMix::unusableWeight(const Slot& slot) const
{
    // Units larger than the slot cannot use it; TP units that would fit cannot use it
    // either when it has no peer access.
    const auto tooBig = std::upper_bound(mBytes.begin(), mBytes.end(), slot.capacityBytes) - mBytes.begin();
    double w = mWeightAbove[static_cast<std::size_t>(tooBig)];
    if (!slot.peerToPeer) {
        const auto fitting = std::upper_bound(mTpBytes.begin(), mTpBytes.end(), slot.capacityBytes) - mTpBytes.begin();
        w += mTpWeightAtMost[static_cast<std::size_t>(fitting)];
    }
    return w;
}

double WorkloadMix::unusableWeight(const Slot& slot, int freeGpusInDomain) const
{
    double w = unusableWeight(slot);
    if (slot.peerToPeer) // TP types that would fit here, were their domain not too full
        for (const TpGroup& g : mTpGroups)
            if (g.tp > freeGpusInDomain) {
                const auto fitting =
                    std::upper_bound(g.bytes.begin(), g.bytes.end(), slot.capacityBytes) - g.bytes.begin();
                w += g.weightAtMost[static_cast<std::size_t>(fitting)];
            }
    return w;
}

} // namespace gp::calc
