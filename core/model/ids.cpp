// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "ids.h"

#include <cctype>

namespace gp {

IdAllocator::IdAllocator(const Scenario& s)
{
    for (const auto& g : s.topology.groups)
        mUsed.insert(g.id);
    for (const auto& n : s.topology.nodes)
        mUsed.insert(n.id);
    for (const auto& sw : s.topology.switches)
        mUsed.insert(sw.id);
    for (const auto& l : s.topology.links)
        mUsed.insert(l.id);
    for (const auto& t : s.tenants) {
        mUsed.insert(t.id);
        for (const auto& j : t.jobs)
            mUsed.insert(j.id);
    }
}

std::string IdAllocator::numbered(const std::string& prefix)
{
    for (int i = 1;; ++i) {
        std::string id = prefix + "-" + std::to_string(i);
        if (mUsed.insert(id).second)
            return id;
    }
}

std::string IdAllocator::named(const std::string& base)
{
    if (mUsed.insert(base).second)
        return base;
    for (int i = 2;; ++i) {
        std::string id = base + "-" + std::to_string(i);
        if (mUsed.insert(id).second)
            return id;
    }
}

std::string idFromName(std::string_view name, std::string_view fallback)
{
    std::string out;
    bool dash = false;
    for (const char c : name) {
        const auto u = static_cast<unsigned char>(c);
        if (std::isalnum(u) || c == '.' || c == '_' || c == '-') {
            if (dash && !out.empty())
                out += '-';
            dash = false;
            out += static_cast<char>(std::tolower(u));
        } else
            dash = true;
    }
    while (!out.empty() && out.back() == '-')
        out.pop_back();
    return out.empty() ? std::string(fallback) : out;
}

} // namespace gp
