// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include <QString>

#include <optional>

namespace gp::study {

/// A duration as `check-plan --step` and the Plan vs Measured view read it: seconds, or a number
/// with s, m, h, d or w ("30", "30s", "5m", "7d"); nullopt when it is not one.
std::optional<double> durationFromText(const QString& text);

/// A time as `check-plan --from/--to` and the Plan vs Measured view read it (docs/cli.md#check-plan):
/// RFC 3339 with a zone ("2026-12-01T00:00:00Z"), Unix seconds, "now", or "now-" and a duration
/// ("now-7d"); Unix seconds, or nullopt when it is not one.
std::optional<double> timeFromText(const QString& text, double nowS);

} // namespace gp::study
