// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// Which validation rows are calibration and which are held out (data/validation/split.json;
// docs/validation.md).
#include "validationrowjson.h"
#include "validationrows.h"

#include "io/jsonfile.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonObject>

#include <algorithm>

namespace gp::study {

using rowjson::intOr;
using rowjson::lower;
using rowjson::str;

std::string ValidationSplit::splitOf(const QJsonObject& row) const
{
    if (row.value("used_in_existing_validation").toBool())
        return "calibration";
    const std::string source = str(row.value("source"));
    const std::string gpu = str(row.value("gpu_catalog_id"));
    const std::string precision = lower(str(row.value(row.contains("engine") ? "weights_precision" : "precision")));
    for (const SplitRule& r : rules) {
        if (r.source != source)
            continue;
        if (!r.gpus.empty() && std::find(r.gpus.begin(), r.gpus.end(), gpu) == r.gpus.end())
            continue;
        if (!r.precisionPrefixes.empty() &&
            std::none_of(r.precisionPrefixes.begin(), r.precisionPrefixes.end(),
                         [&](const std::string& p) { return precision.starts_with(lower(p)); }))
            continue;
        if (r.denseOnly && intOr(row.value("ep"), 1) > 1)
            continue;
        return r.split;
    }
    return "heldout";
}

Result<ValidationSplit> readValidationSplit(const QByteArray& json)
{
    Issues issues;
    const auto root = io::parseJsonObject(json, issues);
    if (!root)
        return Failure{std::move(issues)};
    ValidationSplit split;
    const QJsonArray rules = root->value("rules").toArray();
    if (!root->value("rules").isArray())
        issues.push_back(Issue::error("rules", "missing: the split needs a rules array"));
    for (qsizetype i = 0; i < rules.size(); ++i) {
        const std::string at = "rules[" + std::to_string(i) + "]";
        const QJsonObject o = rules[i].toObject();
        SplitRule r;
        r.source = str(o.value("source"));
        r.split = str(o.value("split"));
        r.why = str(o.value("why"));
        r.denseOnly = o.value("dense_only").toBool(false);
        for (const auto& g : o.value("gpu_catalog_ids").toArray())
            r.gpus.push_back(str(g));
        for (const auto& p : o.value("precision_prefixes").toArray())
            r.precisionPrefixes.push_back(str(p));
        if (r.source.empty())
            issues.push_back(Issue::error(at + ".source", "missing: a rule needs the source it applies to"));
        if (r.split != "calibration" && r.split != "heldout")
            issues.push_back(Issue::error(at + ".split", "'" + r.split + "' must be calibration or heldout"));
        split.rules.push_back(std::move(r));
    }
    for (const auto& s : root->value("calibration_elsewhere").toArray())
        split.calibrationElsewhere.push_back(str(s.toObject().value("source")));
    if (hasErrors(issues))
        return Failure{std::move(issues)};
    return Result<ValidationSplit>::success(std::move(split));
}

Result<ValidationSplit> loadValidationSplit(const QString& dataDir)
{
    const QString path = QDir(dataDir).absoluteFilePath("validation/split.json");
    Issues issues;
    const auto bytes = io::readFileBytes(path, issues);
    if (!bytes) {
        inFile(issues, path.toStdString());
        return Failure{std::move(issues)};
    }
    auto split = readValidationSplit(*bytes);
    inFile(split.issues, path.toStdString());
    return split;
}

} // namespace gp::study
