// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "issue.h"

#include <cmath>
#include <concepts>
#include <limits>
#include <optional>
#include <sstream>
#include <string>

namespace gp::checks {

/// Shortest readable spelling of a number for messages ("3", "0.5", "1e+20").
inline std::string num(double v)
{
    std::ostringstream s;
    s.precision(12);
    s << v;
    return s.str();
}

inline std::string idx(const std::string& path, std::size_t i) { return path + "[" + std::to_string(i) + "]"; }

/// A field's path below `path` ("tenants[0].jobs[2]" + "tp"), spelt out only when used as a
/// string: validation checks tens of thousands of fields per scenario and names only the bad ones.
struct Field
{
    const std::string& path;
    const char* name;
    std::string str() const { return path.empty() ? std::string(name) : path + "." + name; }
    operator std::string() const { return str(); } // NOLINT(google-explicit-constructor): a path is a string
};

inline Field field(const std::string& path, const char* name) { return {path, name}; }
inline std::string field(const std::string& path, const std::string& name)
{
    return path.empty() ? name : path + "." + name;
}

/// `v` as a T when it is finite, whole and inside T's range; nullopt otherwise. The one way a
/// reader turns a number it was given into an integer or an enum's underlying value: casting
/// a double outside the target's range is undefined behaviour, so the range is checked on the
/// double, before any conversion (the bounds are powers of two, exact as doubles).
template <std::integral T> std::optional<T> exactInteger(double v)
{
    constexpr double lo = static_cast<double>(std::numeric_limits<T>::min());
    // max() + 1 is a power of two and exact; max() itself may round up when converted.
    constexpr double hiExclusive = static_cast<double>(std::numeric_limits<T>::max() / 2 + 1) * 2.0;
    if (!std::isfinite(v) || std::floor(v) != v || v < lo || v >= hiExclusive)
        return std::nullopt;
    return static_cast<T>(v);
}

/// Appends an error unless lo <= v <= hi and v is finite; returns whether it passed.
inline bool inRange(Issues& out, const std::string& path, double v, double lo, double hi, const std::string& what = {})
{
    if (std::isfinite(v) && v >= lo && v <= hi)
        return true;
    std::string why = std::isfinite(v) ? "must be between " + num(lo) + " and " + num(hi) : "must be a finite number";
    out.push_back(Issue::error(path, num(v) + " " + why + (what.empty() ? "" : " (" + what + ")")));
    return false;
}

/// The same for a field whose path is spelt out only when the check fails.
inline bool inRange(Issues& out, const Field& path, double v, double lo, double hi, const char* what = "")
{
    if (std::isfinite(v) && v >= lo && v <= hi)
        return true;
    return inRange(out, path.str(), v, lo, hi, what);
}

} // namespace gp::checks
