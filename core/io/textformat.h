// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

// The number formats of model/format.h as QString, for the workbench and the CLI: one
// definition of how a percentage, an amount or a latency is written. QtCore only, so the CLI
// formats with it without linking the workbench (docs/architecture.md §5).
#include "model/format.h"

#include <QString>

namespace gp::fmt::text {

inline QString q(const std::string& s) { return QString::fromStdString(s); }
inline QString percent(double fraction, int decimals = 1) { return q(fmt::percent(fraction, decimals)); }
inline QString usd(double v) { return q(fmt::usd(v)); }
inline QString usdThousands(double v) { return q(fmt::usdThousands(v)); }
inline QString grouped(double v) { return q(fmt::grouped(v)); }
inline QString gib(double bytes, int decimals = 1) { return q(fmt::gib(bytes, decimals)); }
inline QString days(double d) { return q(fmt::days(d)); }
inline QString latency(double seconds) { return q(fmt::latency(seconds)); }

} // namespace gp::fmt::text

namespace gp {
/// The short spelling the workbench's views use (`text::percent` inside gp::ui).
namespace text = fmt::text;
} // namespace gp
