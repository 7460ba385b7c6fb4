// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include <string>

/// How gpuplan writes its numbers, defined once (docs/architecture.md §5): the workbench, the
/// report, the slides and the CLI all call these, so "46.9 %", "$139,693" and "258 ms" read the
/// same everywhere. English separators always (a plan is shared across teams and tools), and
/// no Qt, so the CLI and the core use them too.
namespace gp::fmt {

/// `v` with `decimals` decimals: "3.14".
std::string fixed(double v, int decimals);
/// Whole number with thousands separators: "139,693", "-1,024" (rounded).
std::string grouped(double v);
/// A fraction as a percentage: 0.469 → "46.9 %".
std::string percent(double fraction, int decimals = 1);
/// A change of a fraction in percentage points: 0.021 → "2.1 pt" (no sign).
std::string points(double fraction);
/// Dollars, whole: "$139,693" ("-$12" for a negative amount).
std::string usd(double v);
/// Dollars for a unit price, with cents: "$1.40", "$12.35"; below a dollar three decimals,
/// "$0.123" (prices per million tokens).
std::string usdPrice(double v);
/// Dollars in thousands: "$140k".
std::string usdThousands(double v);
/// Bytes as GiB, the number only: "12.3".
std::string gib(double bytes, int decimals = 1);
/// Days: "25.8 d".
std::string days(double d);
/// A latency in seconds: "258 ms", "4.1 ms", "1.47 s", or "unbounded" (a saturated queue,
/// 1e30 and above).
std::string latency(double seconds);

} // namespace gp::fmt
