// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "errorbandsio.h"

#include "jsonfields.h"
#include "jsonfile.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace gp::io {

std::vector<ErrorBandClass> readErrorBands(const QByteArray& json, Issues& out)
{
    std::vector<ErrorBandClass> classes;
    const auto root = parseJsonObject(json, out);
    if (!root)
        return classes;
    JsonFields f(*root, "", out);
    const int version = f.integer("format_version", 1);
    if (version != 1) {
        out.push_back(Issue::error(f.pathOf("format_version"), "unknown error-band format " + std::to_string(version)));
        return classes;
    }
    f.skip("generated_by");
    f.skip("note");
    const auto list = f.array("classes", true);
    f.finish();
    if (!list)
        return classes;
    for (qsizetype i = 0; i < list->size(); ++i) {
        const std::string path = "classes[" + std::to_string(i) + "]";
        const auto o = asObject(list->at(i), path, out);
        if (!o)
            continue;
        const std::size_t before = out.size();
        JsonFields g(*o, path, out);
        ErrorBandClass c;
        c.metric = g.string("metric", {}, true);
        c.generation = g.string("gpu_generation", {}, true);
        c.family = g.string("family", {}, true);
        c.parallelism = g.string("parallelism", {}, true);
        c.sizeB = g.number("size_b", 0.0, true);
        c.meanAbsError = g.number("mean_abs_error", 0.0, true);
        c.maxAbsError = g.number("max_abs_error", 0.0, true);
        c.rows = g.integer("rows", 0, true);
        if (const auto sources = g.array("sources"))
            for (const auto& s : *sources)
                c.sources.push_back(s.toString().toStdString());
        g.finish();
        if (c.metric != "step_time" && c.metric != "output_tokens_per_s")
            out.push_back(
                Issue::error(path + ".metric", "'" + c.metric + "' must be step_time or output_tokens_per_s"));
        if (c.sizeB <= 0.0 || c.rows <= 0 || c.meanAbsError < 0.0)
            out.push_back(Issue::error(path, "size_b and rows must be positive and mean_abs_error not negative"));
        if (out.size() == before)
            classes.push_back(std::move(c));
    }
    return classes;
}

QByteArray errorBandsToJson(const std::vector<ErrorBandClass>& classes, const std::string& generatedBy)
{
    QJsonArray list;
    for (const ErrorBandClass& c : classes) {
        QJsonArray sources;
        for (const std::string& s : c.sources)
            sources.append(QString::fromStdString(s));
        list.append(QJsonObject{{"metric", QString::fromStdString(c.metric)},
                                {"gpu_generation", QString::fromStdString(c.generation)},
                                {"family", QString::fromStdString(c.family)},
                                {"parallelism", QString::fromStdString(c.parallelism)},
                                {"size_b", c.sizeB},
                                {"mean_abs_error", c.meanAbsError},
                                {"max_abs_error", c.maxAbsError},
                                {"rows", c.rows},
                                {"sources", sources}});
    }
    const QJsonObject root{{"format_version", 1},
                           {"generated_by", QString::fromStdString(generatedBy)},
                           {"note",
                            "Held-out error of gpuplan's predictions per class of published runs (docs/validation.md, "
                            "\"Held-out validation\"); regenerate, never edit by hand."},
                           {"classes", list}};
    return QJsonDocument(root).toJson(QJsonDocument::Indented);
}

} // namespace gp::io
