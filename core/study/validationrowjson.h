// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

// Reading the validation rows' JSON fields (internal to validationrows.cpp, validationpredict.cpp and
// validationsplit.cpp).
#include <QJsonValue>

#include <algorithm>
#include <cctype>
#include <optional>
#include <string>

namespace gp::study::rowjson {

/// A string field, or "" for anything else.
inline std::string str(const QJsonValue& v) { return v.isString() ? v.toString().toStdString() : std::string(); }

inline std::string lower(std::string s)
{
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return s;
}

inline bool contains(const std::string& s, const char* part) { return s.find(part) != std::string::npos; }
/// A positive number the source printed, or nothing.
inline std::optional<double> positive(const QJsonValue& v)
{
    if (v.isDouble() && v.toDouble() > 0.0)
        return v.toDouble();
    return std::nullopt;
}

/// needs_features entries the harness handles: a custom shape printed with the source, the
/// Llama 3.1 70B alias of the llama3.3-70b preset (same layers, hidden, heads and KV heads),
/// context parallelism (the row's `cp`), expert parallelism (the row's `ep`), FP8 on B200 (the
/// catalog has its FP8 peak) and block-scaled FP8 (MXFP8 / FP8-MX: FP8 math on Blackwell's
/// tensor cores, docs/model-reference.md "Block-scaled FP8").
inline bool featureHandled(const std::string& need)
{
    return need.starts_with("custom model shape") || need.starts_with("no llama3.1-70b preset") ||
           need == "context parallelism" || need == "moe expert parallelism" || need == "fp8 on b200" ||
           need == "mxfp8 block-scaled precision";
}

/// A whole-number field, or `fallback` where the row has none.
inline int intOr(const QJsonValue& v, int fallback) { return v.isDouble() ? v.toInt() : fallback; }

} // namespace gp::study::rowjson
