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
/// input unusable; warnings are kept apart and never stop a load (architecture.md §5).
struct Issue
{
    enum class Severity
    {
        Error,
        Warning
    };

    Severity severity = Severity::Error;
    std::string path; ///< JSON path such as tenants[2].jobs[0].parallelism.tp, or "line 4, gpu_milli" ("" = whole file)
    std::string message; ///< what value, and why it is refused
    std::string file;    ///< the file it is in, where the reader read several ("" = the one input)

    static Issue error(std::string path, std::string message)
    {
        return {Severity::Error, std::move(path), std::move(message), {}};
    }
    static Issue warning(std::string path, std::string message)
    {
        return {Severity::Warning, std::move(path), std::move(message), {}};
    }
    bool isError() const { return severity == Severity::Error; }
    /// "FILE: PATH: message", leaving out what is empty.
    std::string toString() const
    {
        const std::string at = path.empty() ? message : path + ": " + message;
        return file.empty() ? at : file + ": " + at;
    }
};

using Issues = std::vector<Issue>;

inline bool hasErrors(const Issues& issues, std::size_t from = 0)
{
    for (std::size_t i = from; i < issues.size(); ++i)
        if (issues[i].isError())
            return true;
    return false;
}

/// Names the file the issues from index `from` on are in.
inline void inFile(Issues& issues, const std::string& file, std::size_t from = 0)
{
    for (std::size_t i = from; i < issues.size(); ++i)
        issues[i].file = file;
}

/// What a fallible function returns (docs/architecture.md, "One error shape"): the value only
/// when nothing is in error, and every issue found with its path, errors and warnings alike.
template <typename T> struct Result
{
    std::optional<T> value;
    Issues issues;

    bool ok() const { return value.has_value(); }
    explicit operator bool() const { return ok(); }
    /// The value; only when ok(). Of a temporary Result, a moved-out copy, so that
    /// `for (auto& x : *read())` does not iterate a destroyed value.
    T& operator*() & { return *value; }
    const T& operator*() const& { return *value; }
    T operator*() && { return std::move(*value); }
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

/// One error: where (a JSON path, a file, "scenario 7") and why.
inline Failure failure(std::string where, std::string why)
{
    return Failure{{Issue::error(std::move(where), std::move(why))}};
}

} // namespace gp
