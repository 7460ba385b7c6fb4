// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "inventory.h"

#include "model/format.h"

#include <algorithm>

namespace gp::calc {

std::optional<double> gpuHourPrice(const Scenario& s, const Catalog& c, const std::string& gpuId)
{
    return gpuHourPriceOf(s, c, gpuId).usd;
}

GpuHourPrice gpuHourPriceOf(const Scenario& s, const Catalog& c, const std::string& gpuId)
{
    if (const auto& own = s.pricing.ownership) {
        const GpuSpec* g = c.gpu(gpuId);
        const double power = g ? g->tdpW / 1000.0 * own->pue * own->usdPerKwh : 0.0;
        return {own->capexPerGpuUsd / (own->amortizationYears * 8760.0) + power,
                "ownership: $" + fmt::grouped(own->capexPerGpuUsd) + " per GPU over " +
                    fmt::fixed(own->amortizationYears, 1) + " years, plus power (TDP × PUE " + fmt::fixed(own->pue, 2) +
                    " × $" + fmt::fixed(own->usdPerKwh, 3) + "/kWh)"};
    }
    if (auto it = s.pricing.gpuHourUsd.find(gpuId); it != s.pricing.gpuHourUsd.end())
        return {it->second, "this scenario's price (pricing.gpu_hour_usd)"};
    const PricePreset* p = c.pricePreset(s.pricing.preset);
    if (p)
        if (auto it = p->gpuHourUsd.find(gpuId); it != p->gpuHourUsd.end())
            return {it->second, "price preset " + p->name + (p->asOf.empty() ? "" : ", as of " + p->asOf)};
    return {std::nullopt, p ? "not in price preset " + p->name + ": counted as $0"
                            : std::string("no price preset and no price of its own: counted as $0")};
}

Inventory takeInventory(const Scenario& scenario, const Catalog& catalog)
{
    Inventory inv;
    const Topology& t = scenario.topology;
    inv.nodes = static_cast<int>(t.nodes.size());
    inv.switches = static_cast<int>(t.switches.size());
    inv.links = static_cast<int>(t.links.size());
    for (const Node& n : t.nodes) {
        inv.gpus += n.gpuCount;
        inv.gpusByModel[n.gpuId] += n.gpuCount;
        if (const GpuSpec* g = catalog.gpu(n.gpuId))
            inv.vramGiB += g->memoryUsableGiB * n.gpuCount;
        for (int i = 0; i < n.gpuCount; ++i) {
            const SharingConfig& cfg = n.sharingOf(i);
            ++inv.gpusByMode[cfg.mode];
            if (cfg.mode == SharingMode::Mig)
                inv.migInstances += static_cast<int>(cfg.migInstances.size());
        }
        if (auto price = gpuHourPrice(scenario, catalog, n.gpuId))
            inv.costPerHourUsd += *price * n.gpuCount;
        else if (std::find(inv.unpricedGpus.begin(), inv.unpricedGpus.end(), n.gpuId) == inv.unpricedGpus.end())
            inv.unpricedGpus.push_back(n.gpuId);
    }
    inv.costPerMonthUsd = inv.costPerHourUsd * Inventory::kHoursPerMonth;
    inv.tenants = static_cast<int>(scenario.tenants.size());
    for (const Tenant& tn : scenario.tenants) {
        inv.jobs += static_cast<int>(tn.jobs.size());
        for (const Job& j : tn.jobs)
            inv.gpusRequested += static_cast<long long>(j.parallelism.gpus());
    }
    return inv;
}

} // namespace gp::calc
