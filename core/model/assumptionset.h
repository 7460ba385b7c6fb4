// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

namespace gp {

/// Some of the registered assumptions (assumptions.h): what one figure of the calculation read,
/// recorded where it reads them (calc::JobResult), so that an explanation lists only the
/// assumptions that feed its number (issue 36). A bit per assumption, by its place in the
/// registry: cheap to copy, to join over many jobs, and to keep per job.
class AssumptionSet
{
public:
    AssumptionSet() = default;
    /// The set of these keys; each must be registered (std::out_of_range otherwise).
    AssumptionSet(std::initializer_list<const char*> keys);

    /// Adds a registered key (std::out_of_range for one that is not).
    void add(const std::string& key);
    bool contains(const std::string& key) const;
    bool empty() const { return mBits == 0; }
    /// The keys, in the registry's order.
    std::vector<std::string> keys() const;

    AssumptionSet& operator|=(const AssumptionSet& other)
    {
        mBits |= other.mBits;
        return *this;
    }
    friend AssumptionSet operator|(AssumptionSet a, const AssumptionSet& b) { return a |= b; }
    bool operator==(const AssumptionSet&) const = default;

private:
    std::uint64_t mBits = 0;
};

} // namespace gp
