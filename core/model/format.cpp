// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "format.h"
#include "units.h"

#include <cmath>
#include <cstdio>

namespace gp::fmt {

std::string fixed(double v, int decimals)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}

std::string grouped(double v)
{
    const double whole = std::round(std::abs(v));
    const std::string digits = fixed(whole, 0);
    std::string out = v < 0 && whole > 0 ? "-" : "";
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0)
            out += ',';
        out += digits[i];
    }
    return out;
}

std::string percent(double fraction, int decimals) { return fixed(fraction * 100.0, decimals) + " %"; }

std::string points(double fraction) { return fixed(std::abs(fraction) * 100.0, 1) + " pt"; }

std::string usd(double v)
{
    const double whole = std::round(std::abs(v));
    std::string out = v < 0 && whole > 0 ? "-$" : "$";
    out += grouped(whole);
    return out;
}

std::string usdPrice(double v)
{
    const std::string digits = fixed(std::abs(v), std::abs(v) < 1.0 ? 3 : 2);
    return (v < 0 && digits.find_first_not_of("0.") != std::string::npos ? "-$" : "$") + digits;
}

std::string usdThousands(double v) { return usd(v / 1000.0) + "k"; }

std::string gib(double bytes, int decimals) { return fixed(bytes / kGiB, decimals); }

std::string days(double d) { return fixed(d, 1) + " d"; }

std::string latency(double s)
{
    if (s >= 1e29)
        return "unbounded";
    if (s >= 1.0)
        return fixed(s, 2) + " s";
    return fixed(s * 1e3, s < 0.01 ? 1 : 0) + " ms";
}

} // namespace gp::fmt
