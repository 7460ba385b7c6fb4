// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "catalog.h"
#include "job.h"

#include <algorithm>
#include <cctype>

namespace gp {

namespace {

std::string lower(const std::string& s)
{
    std::string out = s;
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
}

std::string squeezed(const std::string& s)
{
    std::string out;
    for (unsigned char c : s)
        if (std::isalnum(c))
            out += static_cast<char>(std::tolower(c));
    return out;
}

template <typename T> const T* byId(const std::vector<T>& items, const std::string& id)
{
    for (const auto& item : items)
        if (item.id == id)
            return &item;
    return nullptr;
}

} // namespace

const GpuSpec* Catalog::gpu(const std::string& id) const { return byId(gpus, id); }
const NodeTemplate* Catalog::nodeTemplate(const std::string& id) const { return byId(nodeTemplates, id); }
const SwitchTemplate* Catalog::switchTemplate(const std::string& id) const { return byId(switchTemplates, id); }

const RackTemplate* Catalog::rackTemplate(const std::string& id) const { return byId(rackTemplates, id); }
const PricePreset* Catalog::pricePreset(const std::string& id) const { return byId(pricePresets, id); }
const ModelPreset* Catalog::model(const std::string& id) const { return byId(models, id); }

const GpuSpec* Catalog::findGpu(const std::string& idOrName) const
{
    const std::string wanted = lower(idOrName);
    for (const auto& g : gpus)
        if (lower(g.id) == wanted || lower(g.name) == wanted)
            return &g;
    // Looser match: ignore case, spaces and punctuation, but only if it is unambiguous.
    const std::string key = squeezed(idOrName);
    const GpuSpec* found = nullptr;
    for (const auto& g : gpus) {
        if (squeezed(g.id) == key || squeezed(g.name) == key) {
            if (found)
                return nullptr;
            found = &g;
        }
    }
    return found;
}

const SoftwareStack* Catalog::softwareStack(const std::string& id) const { return byId(softwareStacks, id); }

const SoftwareStack* Catalog::softwareStackFor(const Job& job) const { return softwareStack(softwareStackOf(job)); }

std::string defaultSoftwareStack(const Job& job)
{
    if (!job.isTraining())
        return "tensorrt-llm";
    return job.parallelism.fsdp || job.parallelism.zeroStage == 3 ? "fsdp" : "megatron-lm";
}

std::string softwareStackOf(const Job& job)
{
    return job.softwareStack.empty() ? defaultSoftwareStack(job) : job.softwareStack;
}

} // namespace gp
