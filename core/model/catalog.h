// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "errorband.h"
#include "gpuspec.h"
#include "modelpreset.h"
#include "nodetemplate.h"
#include "pricepreset.h"
#include "softwarestack.h"

#include <string>
#include <vector>

namespace gp {

/// Everything the scenario refers to by id: GPUs, node and switch templates, prices and
/// model presets. Built by the io layer from data/catalog, data/models and a user file.
struct Catalog
{
    std::vector<GpuSpec> gpus;
    std::vector<NodeTemplate> nodeTemplates;
    std::vector<SwitchTemplate> switchTemplates;
    std::vector<RackTemplate> rackTemplates;
    std::vector<PricePreset> pricePresets;
    std::vector<ModelPreset> models;
    /// Held-out error of the model per class of runs (validation/error-bands.json); empty when not shipped.
    std::vector<ErrorBandClass> errorBands;
    std::vector<SoftwareStack> softwareStacks;

    const GpuSpec* gpu(const std::string& id) const;
    /// Case-insensitive match on id or name, ignoring spaces, '-' and '_'
    /// ("A100-40GB", "a100 40gb sxm" and "a100-sxm4-40gb" all work when unambiguous).
    const GpuSpec* findGpu(const std::string& idOrName) const;
    const NodeTemplate* nodeTemplate(const std::string& id) const;
    const SwitchTemplate* switchTemplate(const std::string& id) const;
    const RackTemplate* rackTemplate(const std::string& id) const;
    const PricePreset* pricePreset(const std::string& id) const;
    const ModelPreset* model(const std::string& id) const;
    const SoftwareStack* softwareStack(const std::string& id) const;
    /// The profile a job runs on (its own, or the default for its kind); nullptr when the
    /// catalog lacks it.
    const SoftwareStack* softwareStackFor(const Job& job) const;
};

} // namespace gp
