// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "scenariomigrations.h"

#include "model/scenario.h"

#include <array>
#include <functional>

namespace gp::io {

namespace {

using Step = std::function<Result<QJsonObject>(QJsonObject)>;

/// 1 → 2: every field version 2 adds is optional, and its default means what version 1 meant.
Result<QJsonObject> v1ToV2(QJsonObject root)
{
    root.insert(QLatin1String("format_version"), 2);
    return Result<QJsonObject>::success(std::move(root));
}

/// 2 → 3 (issue 38): a job's optional `imported` (what a cluster import made it from); absent
/// means a job a person typed in, as every version-2 job was.
Result<QJsonObject> v2ToV3(QJsonObject root)
{
    root.insert(QLatin1String("format_version"), 3);
    return Result<QJsonObject>::success(std::move(root));
}

/// 3 → 4 (issue 38): the scenario's optional `calibration` (a calibration profile it is
/// evaluated with) and a tenant's optional `busy_fraction`; absent means the defaults, as every
/// version-3 plan was evaluated.
Result<QJsonObject> v3ToV4(QJsonObject root)
{
    root.insert(QLatin1String("format_version"), 4);
    return Result<QJsonObject>::success(std::move(root));
}

/// 4 → 5 (issue 37): a job's optional `parallelism.etp` (MoE parallel folding) and
/// `parallelism.recompute_modules` and `parallelism.recompute_layers`; absent means the experts follow tp and ep
/// divides dp, and selective recomputation recomputes the attention core, as every version-4 plan was evaluated.
Result<QJsonObject> v4ToV5(QJsonObject root)
{
    root.insert(QLatin1String("format_version"), 5);
    return Result<QJsonObject>::success(std::move(root));
}

/// 5 → 6 (issue 37): a job's optional `parallelism.moe_a2a_overlap` (Megatron-Core's EP all-to-all
/// overlap); absent means the all-to-all is not overlapped, as every version-5 plan was evaluated.
Result<QJsonObject> v5ToV6(QJsonObject root)
{
    root.insert(QLatin1String("format_version"), 6);
    return Result<QJsonObject>::success(std::move(root));
}

/// steps[i] migrates version i + 1 to i + 2.
const std::array<Step, Scenario::kFormatVersion - kOldestScenarioFormat>& steps()
{
    static const std::array<Step, Scenario::kFormatVersion - kOldestScenarioFormat> s{v1ToV2, v2ToV3, v3ToV4, v4ToV5,
                                                                                      v5ToV6};
    return s;
}

} // namespace

Result<QJsonObject> migrateScenarioJson(QJsonObject root, int fromVersion)
{
    if (fromVersion < kOldestScenarioFormat || fromVersion > Scenario::kFormatVersion)
        return failure("format_version", std::to_string(fromVersion) + " is not a known format version");
    for (int v = fromVersion; v < Scenario::kFormatVersion; ++v) {
        auto next = steps()[static_cast<size_t>(v - kOldestScenarioFormat)](std::move(root));
        if (!next)
            return next;
        root = std::move(*next);
    }
    return Result<QJsonObject>::success(std::move(root));
}

} // namespace gp::io
