// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include <string>
#include <vector>

namespace gp {

/// A problem found in user input, with where it is and why it is wrong. Errors make the
/// input unusable; warnings are kept apart and never stop a load (DESIGN.md §5.7).
struct Issue
{
    enum class Severity { Error, Warning };

    Severity severity = Severity::Error;
    std::string path;    ///< JSON path such as tenants[2].jobs[0].parallelism.tp ("" = whole file)
    std::string message; ///< what value, and why it is refused

    static Issue error(std::string path, std::string message)
    {
        return {Severity::Error, std::move(path), std::move(message)};
    }
    static Issue warning(std::string path, std::string message)
    {
        return {Severity::Warning, std::move(path), std::move(message)};
    }
    bool isError() const { return severity == Severity::Error; }
    /// "PATH: message", or just the message for whole-file problems.
    std::string toString() const { return path.empty() ? message : path + ": " + message; }
};

using Issues = std::vector<Issue>;

inline bool hasErrors(const Issues& issues)
{
    for (const auto& i : issues)
        if (i.isError())
            return true;
    return false;
}

} // namespace gp
