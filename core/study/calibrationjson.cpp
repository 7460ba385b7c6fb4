// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "calibrationjson.h"

#include "io/calibrationprofileio.h"
#include "io/measurementsio.h"

#include <QJsonArray>

namespace gp::study {

namespace {

QJsonValue calibrationOpt(const std::optional<double>& v) { return v ? QJsonValue(*v) : QJsonValue(QJsonValue::Null); }

} // namespace

QJsonObject calibrationToJson(const CalibrationResult& r)
{
    QJsonArray params;
    for (const FittedParameter& p : r.parameters)
        params.append(QJsonObject{
            {"key", QString::fromStdString(p.parameter.key)},
            {"default", p.parameter.defaultValue},
            {"min", p.parameter.minValue},
            {"max", p.parameter.maxValue},
            {"unit", QString::fromStdString(p.parameter.unit)},
            {"fitted", p.fitted},
            {"value", p.value},
            {"std_error", calibrationOpt(p.stdError)},
            {"at_bound", p.atBound},
            {"why_not_fitted", p.fitted ? QJsonValue(QJsonValue::Null) : QJsonValue(QString::fromStdString(p.why))}});
    QJsonArray ms;
    for (const MeasurementFit& m : r.measurements) {
        QJsonObject o = io::toJson(m.measurement);
        o["case"] = m.caseIndex;
        o["predicted_before"] = calibrationOpt(m.before);
        o["predicted_after"] = calibrationOpt(m.after);
        o["predicted_held_out"] = calibrationOpt(m.heldOut);
        o["error_before"] = m.before ? QJsonValue(m.errorBefore()) : QJsonValue(QJsonValue::Null);
        o["error_after"] = m.after ? QJsonValue(m.errorAfter()) : QJsonValue(QJsonValue::Null);
        o["error_held_out"] =
            m.heldOut ? QJsonValue(*m.heldOut / m.measurement.value - 1.0) : QJsonValue(QJsonValue::Null);
        if (!m.why.empty())
            o["left_out"] = QString::fromStdString(m.why);
        ms.append(o);
    }
    QJsonArray issues;
    for (const Issue& i : r.issues)
        issues.append(QJsonObject{{"severity", i.isError() ? "error" : "warning"},
                                  {"where", QString::fromStdString(i.path)},
                                  {"message", QString::fromStdString(i.message)}});
    return QJsonObject{
        {"ok", r.ok()},
        {"error", r.error.empty() ? QJsonValue(QJsonValue::Null) : QJsonValue(QString::fromStdString(r.error))},
        {"issues", issues},
        {"converged", r.converged},
        {"convergence", QString::fromStdString(r.convergence)},
        {"iterations", r.iterations},
        {"evaluations", r.evaluations},
        {"parameters", params},
        {"measurements", ms},
        {"mean_abs_error_before", r.meanAbsErrorBefore},
        {"mean_abs_error_after", r.meanAbsErrorAfter},
        {"folds", r.folds},
        {"held_out_error_before", calibrationOpt(r.heldOutErrorBefore)},
        {"held_out_error_after", calibrationOpt(r.heldOutErrorAfter)},
        {"profile", r.profile ? QJsonValue(io::profileToJsonObject(*r.profile)) : QJsonValue(QJsonValue::Null)}};
}

} // namespace gp::study
