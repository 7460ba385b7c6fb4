// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "calibrationprofileio.h"

#include "jsonfields.h"
#include "jsonfile.h"
#include "measurementsio.h"

#include <QCryptographicHash>
#include <QJsonArray>
#include <QJsonDocument>

#include <cmath>

namespace gp::io {

namespace {

constexpr const char* kProfileFormat = "gpuplan-calibration-profile";

QJsonValue nullableNumber(const std::optional<double>& v) { return v ? QJsonValue(*v) : QJsonValue(QJsonValue::Null); }

QString qstr(const std::string& s) { return QString::fromStdString(s); }

} // namespace

QJsonObject profileToJsonObject(const CalibrationProfile& p)
{
    QJsonArray values;
    for (const CalibratedValue& v : p.values)
        values.append(QJsonObject{{"key", qstr(v.key)},
                                  {"value", v.value},
                                  {"default", v.defaultValue},
                                  {"min", v.minValue},
                                  {"max", v.maxValue},
                                  {"std_error", nullableNumber(v.stdError)}});
    QJsonArray unconstrained;
    for (const std::string& k : p.unconstrained)
        unconstrained.append(qstr(k));
    return QJsonObject{{"format", kProfileFormat},
                       {"format_version", CalibrationProfile::kFormatVersion},
                       {"name", qstr(p.name)},
                       {"cluster", qstr(p.cluster)},
                       {"stack", qstr(p.stack)},
                       {"version", p.version},
                       {"author", qstr(p.author)},
                       {"created_at", qstr(p.createdAt)},
                       {"measurements_digest", qstr(p.measurementsDigest)},
                       {"measurement_count", p.measurementCount},
                       {"parameters", values},
                       {"unconstrained", unconstrained},
                       {"fit", QJsonObject{{"mean_abs_error_before", p.meanAbsErrorBefore},
                                           {"mean_abs_error_after", p.meanAbsErrorAfter},
                                           {"held_out_error_before", nullableNumber(p.heldOutErrorBefore)},
                                           {"held_out_error_after", nullableNumber(p.heldOutErrorAfter)},
                                           {"folds", p.folds}}}};
}

QByteArray profileToJson(const CalibrationProfile& profile)
{
    return QJsonDocument(profileToJsonObject(profile)).toJson(QJsonDocument::Indented);
}

namespace {

Result<CalibrationProfile> readProfileObject(const QJsonObject& root)
{
    Issues out;
    CalibrationProfile p;
    JsonFields f(root, "", out);
    const std::string format = f.string("format", {}, true);
    const int version = f.integer("format_version", CalibrationProfile::kFormatVersion, true);
    p.name = f.string("name", {}, true);
    p.cluster = f.string("cluster");
    p.stack = f.string("stack");
    p.version = f.integer("version", 1);
    p.author = f.string("author");
    p.createdAt = f.string("created_at");
    p.measurementsDigest = f.string("measurements_digest");
    p.measurementCount = f.integer("measurement_count", 0);
    const auto values = f.array("parameters", true);
    const auto unconstrained = f.array("unconstrained");
    const auto fit = f.object("fit");
    f.finish();
    if (format != kProfileFormat)
        out.push_back(Issue::error("format", "'" + format + "' is not a gpuplan calibration profile (want '" +
                                                 std::string(kProfileFormat) + "')"));
    else if (version > CalibrationProfile::kFormatVersion || version < 1)
        out.push_back(Issue::error("format_version", "profile format " + std::to_string(version) +
                                                         " needs a newer gpuplan (this one reads " +
                                                         std::to_string(CalibrationProfile::kFormatVersion) + ")"));
    if (p.name.empty() && !hasErrors(out))
        out.push_back(Issue::error("name", "a profile needs a name"));
    if (p.version < 1)
        out.push_back(Issue::error("version", "must be 1 or more"));
    for (qsizetype i = 0; values && i < values->size(); ++i) {
        const std::string path = "parameters[" + std::to_string(i) + "]";
        const auto o = asObject(values->at(i), path, out);
        if (!o)
            continue;
        JsonFields v(*o, path, out);
        CalibratedValue cv;
        cv.key = v.string("key", {}, true);
        cv.value = v.number("value", 0.0, true);
        cv.defaultValue = v.number("default", 0.0);
        cv.minValue = v.number("min", cv.value);
        cv.maxValue = v.number("max", cv.value);
        if (v.has("std_error") && !o->value("std_error").isNull())
            cv.stdError = v.optionalNumber("std_error");
        else
            v.skip("std_error");
        v.finish();
        if (!CalibrationKey::parse(cv.key))
            out.push_back(Issue::error(path + ".key",
                                       "'" + cv.key + "' is no calibrated parameter (docs/calibration.md#parameters)"));
        if (!std::isfinite(cv.value) || cv.value < cv.minValue || cv.value > cv.maxValue)
            out.push_back(Issue::error(path + ".value", "must be a finite number within [min, max]"));
        if (p.find(cv.key))
            out.push_back(Issue::error(path + ".key", "'" + cv.key + "' is given twice"));
        p.values.push_back(std::move(cv));
    }
    for (qsizetype i = 0; unconstrained && i < unconstrained->size(); ++i) {
        if (!unconstrained->at(i).isString())
            out.push_back(Issue::error("unconstrained[" + std::to_string(i) + "]", "must be a string"));
        else
            p.unconstrained.push_back(unconstrained->at(i).toString().toStdString());
    }
    if (fit) {
        JsonFields ff(*fit, "fit", out);
        p.meanAbsErrorBefore = ff.number("mean_abs_error_before", 0.0);
        p.meanAbsErrorAfter = ff.number("mean_abs_error_after", 0.0);
        for (const char* key : {"held_out_error_before", "held_out_error_after"}) {
            auto& target = std::string(key) == "held_out_error_before" ? p.heldOutErrorBefore : p.heldOutErrorAfter;
            if (fit->value(QLatin1String(key)).isNull())
                ff.skip(key);
            else
                target = ff.optionalNumber(key);
        }
        p.folds = ff.integer("folds", 0);
        ff.finish();
    }
    if (hasErrors(out))
        return Failure{std::move(out)};
    return Result<CalibrationProfile>::success(std::move(p), std::move(out));
}

} // namespace

Result<CalibrationProfile> readCalibrationProfile(const QByteArray& json)
{
    Issues out;
    const auto root = parseJsonObject(json, out);
    if (!root)
        return Failure{std::move(out)};
    return readCalibrationProfile(*root, "");
}

Result<CalibrationProfile> readCalibrationProfile(const QJsonObject& root, const std::string& prefix)
{
    auto result = readProfileObject(root);
    if (!prefix.empty())
        for (Issue& i : result.issues)
            i.path = prefix + (i.path.empty() ? "" : "." + i.path);
    return result;
}
std::string measurementsDigest(const MeasurementSet& set)
{
    return QCryptographicHash::hash(measurementsToJson(set), QCryptographicHash::Sha256).toHex().toStdString();
}

} // namespace gp::io
