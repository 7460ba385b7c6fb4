#pragma once

#include "issue.h"

#include <cmath>
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

inline std::string idx(const std::string& path, std::size_t i)
{
    return path + "[" + std::to_string(i) + "]";
}

inline std::string field(const std::string& path, const std::string& name)
{
    return path.empty() ? name : path + "." + name;
}

/// Appends an error unless lo <= v <= hi and v is finite; returns whether it passed.
inline bool inRange(Issues& out, const std::string& path, double v, double lo, double hi,
                    const std::string& what = {})
{
    if (std::isfinite(v) && v >= lo && v <= hi)
        return true;
    std::string why = std::isfinite(v) ? "must be between " + num(lo) + " and " + num(hi)
                                       : "must be a finite number";
    out.push_back(Issue::error(path, num(v) + " " + why + (what.empty() ? "" : " (" + what + ")")));
    return false;
}

} // namespace gp::checks
