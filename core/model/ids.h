// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "scenario.h"

#include <set>
#include <string>
#include <string_view>

namespace gp {

/// The one way gpuplan makes fresh ids (docs/architecture.md §3): every id of a scenario —
/// groups, nodes, switches, links, tenants and jobs — is one namespace, and an allocator hands
/// out ids none of them uses yet, remembering what it gave.
class IdAllocator
{
public:
    explicit IdAllocator(const Scenario& scenario);
    /// `prefix-1`, `prefix-2`, …: the first unused (items made from a template: "dgx-h100-3").
    std::string numbered(const std::string& prefix);
    /// `base` itself when unused, else `base-2`, `base-3`, … (items a person names: a job
    /// "llama3-8b-inference", a link "node-1-leaf-1").
    std::string named(const std::string& base);
    bool isUsed(const std::string& id) const { return mUsed.count(id) > 0; }

private:
    std::set<std::string> mUsed;
};

/// A name as an id: lower case, runs of anything but letters, digits, '.', '_' and '-' as one
/// '-', no leading or trailing '-'; `fallback` when nothing is left.
std::string idFromName(std::string_view name, std::string_view fallback);

} // namespace gp
