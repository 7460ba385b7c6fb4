// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "model/enumnames.h"
#include "model/issue.h"
#include "model/modelpreset.h"
#include "model/validation.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QSet>
#include <QString>

#include <optional>
#include <string>

namespace gp::io {

/// Reads the fields of one JSON object with type and range checks, reporting each problem
/// with its JSON path and leaving the default in place. finish() reports keys that no read
/// asked for, so a typo never silently drops data.
class JsonFields
{
public:
    JsonFields(const QJsonObject& object, std::string path, Issues& out);

    bool has(const char* key) const { return mObject.contains(QLatin1String(key)); }
    std::string pathOf(const char* key) const;
    /// Marks a key as handled without reading it (the caller reports on it itself).
    void skip(const char* key) { mSeen.insert(QLatin1String(key)); }

    /// A string field; refused (with the fallback kept) when it breaks the rules of `kind`
    /// (textProblem: length, control characters). Every string of a JSON input is at least Text.
    std::string string(const char* key, const std::string& fallback = {}, bool required = false,
                       TextKind kind = TextKind::Text);
    std::string id(const char* key, bool required = true) { return string(key, {}, required, TextKind::Id); }
    std::string name(const char* key, const std::string& fallback = {})
    {
        return string(key, fallback, false, TextKind::Name);
    }
    int integer(const char* key, int fallback, bool required = false);
    double number(const char* key, double fallback, bool required = false);
    std::optional<double> optionalNumber(const char* key);
    std::optional<int> optionalInteger(const char* key);
    bool boolean(const char* key, bool fallback);
    std::optional<QJsonObject> object(const char* key, bool required = false);
    std::optional<QJsonArray> array(const char* key, bool required = false);

    template <typename E> E enumValue(const char* key, E fallback, bool required = false)
    {
        const std::string s = string(key, std::string(enumName(fallback)), required);
        if (auto v = enumFromName<E>(s))
            return *v;
        mOut.push_back(Issue::error(pathOf(key), "'" + s + "' must be " + enumChoices<E>()));
        return fallback;
    }

    /// Reports every key of the object that was never read.
    void finish();

private:
    const QJsonValue* fetch(const char* key, bool required, const char* expected);
    void wrongType(const char* key, const QJsonValue& v, const char* expected);

    QJsonObject mObject;
    std::string mPath;
    Issues& mOut;
    QSet<QString> mSeen;
    QJsonValue mCurrent;
};

/// Reads a model shape (layers, hidden_size, ... gated_ffn) from `f`; the object's
/// other keys are left to the caller. Shared by the catalog's model presets and the
/// custom models of scenario jobs.
ModelArchitecture readArchitecture(JsonFields& f);

/// Checks that `v` is an object (reporting at `path` if not).
std::optional<QJsonObject> asObject(const QJsonValue& v, const std::string& path, Issues& out);

/// A short description of a JSON value for messages: "a string \"abc\"", "an array" ...
std::string describe(const QJsonValue& v);

} // namespace gp::io
