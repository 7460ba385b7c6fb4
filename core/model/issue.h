// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace gp {

/// A problem found in user input, with where it is and why it is wrong. Errors make the
/// input unusable; warnings are kept apart and never stop a load (DESIGN.md §5.7).
struct Issue
{
    enum class Severity
    {
        Error,
        Warning
    };

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

/// What a fallible function returns (docs/architecture.md, "One error shape"): the value only
/// when nothing is in error, and every issue found with its path, errors and warnings alike.
template <typename T> struct Result
{
    std::optional<T> value;
    Issues issues;

    bool ok() const { return value.has_value(); }
    explicit operator bool() const { return ok(); }
    /// The value; only when ok().
    T& operator*() { return *value; }
    const T& operator*() const { return *value; }
    T* operator->() { return &*value; }
    const T* operator->() const { return &*value; }
    /// Every issue as "PATH: message" lines, errors first (issueLines).
    std::string errorText(const char* separator = "\n") const;

    static Result success(T v, Issues warnings = {}) { return {std::move(v), std::move(warnings)}; }
    static Result failure(Issues issues) { return {std::nullopt, std::move(issues)}; }
    static Result failure(std::string path, std::string message)
    {
        return {std::nullopt, {Issue::error(std::move(path), std::move(message))}};
    }
};

/// Every issue as "PATH: message" lines, errors first.
inline std::string issueLines(const Issues& issues, const char* separator = "\n")
{
    std::string out;
    for (int pass = 0; pass < 2; ++pass)
        for (const auto& i : issues)
            if (i.isError() == (pass == 0))
                out += (out.empty() ? "" : separator) + i.toString();
    return out;
}

template <typename T> std::string Result<T>::errorText(const char* separator) const
{
    return issueLines(issues, separator);
}

/// What a fallible action without a value returns: done, or the issues that stopped it.
using Status = Result<std::monostate>;
inline Status done() { return Status::success({}); }

/// Errors on their way into a Result of any type: `return Failure{issues};` or the return value
/// of a helper that builds the issue.
struct Failure
{
    Issues issues;
    template <typename T> operator Result<T>() && { return Result<T>::failure(std::move(issues)); }
};

} // namespace gp
