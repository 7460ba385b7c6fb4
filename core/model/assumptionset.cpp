// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "assumptionset.h"

#include "assumptions.h"

#include <stdexcept>

namespace gp {

namespace {

/// The bit of `key`: its place in the registry.
std::uint64_t bitOfAssumption(const std::string& key)
{
    const std::vector<Assumption>& registry = assumptionRegistry();
    for (std::size_t i = 0; i < registry.size(); ++i)
        if (registry[i].key == key) {
            if (i >= 64) // one word holds the set: a registry this long needs a wider one
                throw std::length_error("AssumptionSet holds 64 assumptions; " + key + " is number " +
                                        std::to_string(i + 1));
            return std::uint64_t{1} << i;
        }
    throw std::out_of_range("unknown assumption " + key);
}

} // namespace

AssumptionSet::AssumptionSet(std::initializer_list<const char*> keys)
{
    for (const char* key : keys)
        add(key);
}

void AssumptionSet::add(const std::string& key) { mBits |= bitOfAssumption(key); }

bool AssumptionSet::contains(const std::string& key) const
{
    const Assumption* a = findAssumption(key);
    return a && (mBits & bitOfAssumption(key)) != 0;
}

std::vector<std::string> AssumptionSet::keys() const
{
    std::vector<std::string> out;
    const std::vector<Assumption>& registry = assumptionRegistry();
    for (std::size_t i = 0; i < registry.size() && i < 64; ++i)
        if (mBits & (std::uint64_t{1} << i))
            out.push_back(registry[i].key);
    return out;
}

} // namespace gp
