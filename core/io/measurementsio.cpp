// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "measurementsio.h"

#include "jsonfields.h"
#include "jsonfile.h"

#include <QJsonArray>
#include <QJsonDocument>

#include <cmath>

namespace gp::io {

namespace {

constexpr int kFormatVersion = 1;
constexpr const char* kFormat = "gpuplan-measurements";

std::optional<Measurement> readOne(const QJsonObject& o, const std::string& path, Issues& out)
{
    const std::size_t before = out.size();
    JsonFields f(o, path, out);
    Measurement m;
    m.jobId = f.id("job");
    const std::string quantity = f.string("quantity", {}, true);
    const std::string statistic = f.string("statistic", "mean");
    m.value = f.number("value", 0.0, true);
    m.weight = f.number("weight", 1.0);
    m.tool = f.string("tool");
    m.source = f.string("source");
    m.when = f.string("when");
    const std::string unit = f.string("unit");
    if (const auto config = f.object("config")) {
        for (auto it = config->begin(); it != config->end(); ++it) {
            const std::string key = path + ".config." + it.key().toStdString();
            if (it.value().isString())
                m.config[it.key().toStdString()] = it.value().toString().toStdString();
            else if (it.value().isDouble())
                m.config[it.key().toStdString()] = QString::number(it.value().toDouble(), 'g', 12).toStdString();
            else if (it.value().isBool())
                m.config[it.key().toStdString()] = it.value().toBool() ? "true" : "false";
            else
                out.push_back(Issue::error(key, "must be a string, number or true/false"));
        }
    }
    f.finish();
    if (const auto q = quantityFromName(quantity))
        m.quantity = *q;
    else if (!quantity.empty())
        out.push_back(Issue::error(path + ".quantity",
                                   "'" + quantity +
                                       "' is no quantity gpuplan knows (docs/measurements.md#quantities lists them)"));
    if (!unit.empty() && !quantity.empty() && quantityFromName(quantity) &&
        unit != quantityUnit(*quantityFromName(quantity)))
        out.push_back(Issue::error(path + ".unit", "'" + unit + "' is not the unit of " + quantity + " (" +
                                                       std::string(quantityUnit(*quantityFromName(quantity))) + ")"));
    if (const auto s = statisticFromName(statistic))
        m.statistic = *s;
    else
        out.push_back(Issue::error(path + ".statistic", "'" + statistic + "' must be mean, p50, p90, p99 or max"));
    if (!std::isfinite(m.value) || m.value < 0.0)
        out.push_back(Issue::error(path + ".value", "must be a finite number not below 0"));
    if (!std::isfinite(m.weight) || m.weight <= 0.0)
        out.push_back(Issue::error(path + ".weight", "must be a finite number above 0"));
    if (out.size() != before)
        return std::nullopt;
    return m;
}

} // namespace

MeasurementSet readMeasurements(const QByteArray& json, Issues& out)
{
    MeasurementSet set;
    const auto root = parseJsonObject(json, out);
    if (!root)
        return set;
    JsonFields f(*root, "", out);
    const std::string format = f.string("format", {}, true);
    const int version = f.integer("format_version", kFormatVersion, true);
    set.scenarioId = f.string("scenario", {}, false, TextKind::Id);
    f.skip("note");
    const auto list = f.array("measurements", true);
    f.finish();
    if (format != kFormat) {
        out.push_back(Issue::error("format", "'" + format + "' is not a gpuplan measurements file (want '" +
                                                 std::string(kFormat) + "')"));
        return set;
    }
    if (version != kFormatVersion) {
        out.push_back(Issue::error("format_version", "measurements format " + std::to_string(version) +
                                                         " is not one this gpuplan reads (it reads " +
                                                         std::to_string(kFormatVersion) + ")"));
        return set;
    }
    if (!list)
        return set;
    if (static_cast<std::size_t>(list->size()) > kMaxMeasurements) {
        out.push_back(Issue::error("measurements", std::to_string(list->size()) + " measurements exceed the limit of " +
                                                       std::to_string(kMaxMeasurements)));
        return set;
    }
    for (qsizetype i = 0; i < list->size(); ++i) {
        const std::string path = "measurements[" + std::to_string(i) + "]";
        if (const auto o = asObject(list->at(i), path, out))
            if (auto m = readOne(*o, path, out))
                set.items.push_back(std::move(*m));
    }
    return set;
}

QJsonObject toJson(const Measurement& m)
{
    QJsonObject config;
    for (const auto& [k, v] : m.config)
        config.insert(QString::fromStdString(k), QString::fromStdString(v));
    QJsonObject o{{"job", QString::fromStdString(m.jobId)},
                  {"quantity", QString::fromUtf8(quantityName(m.quantity))},
                  {"statistic", QString::fromUtf8(statisticName(m.statistic))},
                  {"value", m.value},
                  {"unit", QString::fromUtf8(quantityUnit(m.quantity))}};
    if (m.weight != 1.0)
        o.insert("weight", m.weight);
    if (!m.tool.empty())
        o.insert("tool", QString::fromStdString(m.tool));
    if (!m.source.empty())
        o.insert("source", QString::fromStdString(m.source));
    if (!m.when.empty())
        o.insert("when", QString::fromStdString(m.when));
    if (!config.isEmpty())
        o.insert("config", config);
    return o;
}

QByteArray measurementsToJson(const MeasurementSet& set)
{
    QJsonArray list;
    for (const Measurement& m : set.items)
        list.append(toJson(m));
    QJsonObject root{{"format", kFormat}, {"format_version", kFormatVersion}, {"measurements", list}};
    if (!set.scenarioId.empty())
        root.insert("scenario", QString::fromStdString(set.scenarioId));
    return QJsonDocument(root).toJson(QJsonDocument::Indented);
}

} // namespace gp::io
