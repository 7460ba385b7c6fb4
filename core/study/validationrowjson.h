// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

// Reading the validation rows' JSON fields (internal to validationrows.cpp and validationsplit.cpp).
#include <QJsonValue>

#include <algorithm>
#include <cctype>
#include <string>

namespace gp::study::rowjson {

/// A string field, or "" for anything else.
inline std::string str(const QJsonValue& v) { return v.isString() ? v.toString().toStdString() : std::string(); }

inline std::string lower(std::string s)
{
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return s;
}

/// A whole-number field, or `fallback` where the row has none.
inline int intOr(const QJsonValue& v, int fallback) { return v.isDouble() ? v.toInt() : fallback; }

} // namespace gp::study::rowjson
