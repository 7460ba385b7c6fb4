// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "timetext.h"

#include <QDateTime>
#include <QRegularExpression>

namespace gp::study {

std::optional<double> durationFromText(const QString& text)
{
    static const QRegularExpression re(R"(^\s*(\d+(?:\.\d+)?)\s*(s|m|h|d|w)?\s*$)");
    const auto m = re.match(text);
    if (!m.hasMatch())
        return std::nullopt;
    const double n = m.captured(1).toDouble();
    const QString u = m.captured(2);
    const double unit = u == "m" ? 60 : u == "h" ? 3600 : u == "d" ? 86400 : u == "w" ? 604800 : 1;
    return n * unit;
}

std::optional<double> timeFromText(const QString& text, double nowS)
{
    const QString t = text.trimmed();
    if (t == "now")
        return nowS;
    if (t.startsWith("now-"))
        if (auto d = durationFromText(t.mid(4)))
            return nowS - *d;
    bool ok = false;
    const double unix = t.toDouble(&ok);
    if (ok)
        return unix;
    const QDateTime dt = QDateTime::fromString(t, Qt::ISODateWithMs);
    if (dt.isValid() && dt.timeSpec() != Qt::LocalTime)
        return static_cast<double>(dt.toMSecsSinceEpoch()) / 1000.0;
    return std::nullopt;
}

} // namespace gp::study
