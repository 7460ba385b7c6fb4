// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "heldout.h"

#include "io/jsonfile.h"

#include <QJsonDocument>

#include <algorithm>
#include <cmath>
#include <set>
#include <tuple>

namespace gp::study {

namespace {

QJsonValue optional(const std::optional<double>& v) { return v ? QJsonValue(*v) : QJsonValue(QJsonValue::Null); }
QString q(const std::string& s) { return QString::fromStdString(s); }
QJsonArray strings(const std::vector<std::string>& list)
{
    QJsonArray a;
    for (const std::string& s : list)
        a.append(q(s));
    return a;
}

/// The A100 figure fitted before this harness existed (docs/validation.md, tst_stepvalidation).
const char* const kElsewhere =
    "gpus[a100-80gb].efficiency.memory_bound = 0.7 (and a100-40gb): fitted by hand to Korthikanti et al. 2022 "
    "Table 5 (A100, Megatron-LM), checked by tst_stepvalidation; not refitted here";

} // namespace

ValidationReport summarize(std::vector<RowPrediction> rows, const std::string& splitFilter)
{
    ValidationReport r;
    std::erase_if(rows, [&](const RowPrediction& p) { return splitFilter != "all" && p.split != splitFilter; });
    std::map<std::tuple<std::string, std::string, std::string>, std::vector<double>> errors;
    for (const RowPrediction& p : rows) {
        if (p.predictedOk())
            errors[{p.split, p.source, p.metric}].push_back(p.error);
        else
            ++r.skippedByReason[p.skipReason];
    }
    // TTFT and ITL where both sides have one (a saturated prediction has no TTFT).
    std::map<std::tuple<std::string, std::string, std::string>, std::pair<std::vector<double>, std::vector<double>>>
        latencies;
    for (const RowPrediction& p : rows) {
        if (!p.predictedOk())
            continue;
        auto& [ttft, itl] = latencies[{p.split, p.source, p.metric}];
        if (p.measuredTtftS && p.predictedTtftS)
            ttft.push_back(std::abs(*p.predictedTtftS / *p.measuredTtftS - 1.0));
        if (p.measuredItlS && p.predictedItlS)
            itl.push_back(std::abs(*p.predictedItlS / *p.measuredItlS - 1.0));
    }
    const auto mean = [](const std::vector<double>& v) {
        double sum = 0.0;
        for (double x : v)
            sum += x;
        return v.empty() ? 0.0 : sum / double(v.size());
    };
    std::map<std::string, std::vector<double>> perSplit;
    for (const auto& [key, list] : errors) {
        SourceSummary s;
        std::tie(s.split, s.source, s.metric) = key;
        const auto& [ttft, itl] = latencies[key];
        s.ttftRows = int(ttft.size());
        s.itlRows = int(itl.size());
        s.ttftMeanAbsError = mean(ttft);
        s.itlMeanAbsError = mean(itl);
        s.rows = int(list.size());
        for (double e : list) {
            s.meanAbsError += std::abs(e) / double(list.size());
            s.meanError += e / double(list.size());
            s.maxAbsError = std::max(s.maxAbsError, std::abs(e));
        }
        perSplit[s.split].push_back(s.meanAbsError);
        r.sources.push_back(s);
    }
    for (const auto& [split, means] : perSplit) {
        double sum = 0.0;
        for (double m : means)
            sum += m;
        r.meanBySplit[split] = sum / double(means.size());
    }
    r.rows = std::move(rows);
    return r;
}

QJsonObject reportToJson(const ValidationReport& report)
{
    QJsonArray rows;
    for (const RowPrediction& p : report.rows) {
        QJsonObject o{{"index", p.index},
                      {"id", q(p.id)},
                      {"source", q(p.source)},
                      {"split", q(p.split)},
                      {"metric", q(p.metric)}};
        if (!p.predictedOk()) {
            o["skipped"] = q(p.skipReason);
        } else {
            o["predicted"] = p.predicted;
            o["measured"] = p.measured;
            o["measured_from"] = q(p.measuredFrom);
            o["error"] = p.error;
            o["class"] = QJsonObject{{"gpu_generation", q(p.generation)},
                                     {"family", q(p.family)},
                                     {"parallelism", q(p.parallelism)},
                                     {"size_b", p.sizeB}};
            if (!p.serving)
                o["step_breakdown_s"] = p.stepBreakdownS;
            if (p.measuredTtftS)
                o["ttft_s"] = QJsonObject{{"predicted", optional(p.predictedTtftS)}, {"measured", *p.measuredTtftS}};
            if (p.measuredItlS)
                o["itl_s"] = QJsonObject{{"predicted", optional(p.predictedItlS)}, {"measured", *p.measuredItlS}};
        }
        rows.append(o);
    }
    QJsonArray sources;
    for (const SourceSummary& s : report.sources)
        sources.append(QJsonObject{
            {"split", q(s.split)},
            {"source", q(s.source)},
            {"metric", q(s.metric)},
            {"rows", s.rows},
            {"mean_abs_error", s.meanAbsError},
            {"max_abs_error", s.maxAbsError},
            {"mean_error", s.meanError},
            {"ttft", s.ttftRows > 0
                         ? QJsonValue(QJsonObject{{"rows", s.ttftRows}, {"mean_abs_error", s.ttftMeanAbsError}})
                         : QJsonValue(QJsonValue::Null)},
            {"itl", s.itlRows > 0 ? QJsonValue(QJsonObject{{"rows", s.itlRows}, {"mean_abs_error", s.itlMeanAbsError}})
                                  : QJsonValue(QJsonValue::Null)}});
    QJsonObject bySplit;
    for (const auto& [split, mean] : report.meanBySplit)
        bySplit[q(split)] = mean;
    QJsonObject skipped;
    for (const auto& [reason, n] : report.skippedByReason)
        skipped[q(reason)] = n;
    return {{"rows", rows}, {"sources", sources}, {"mean_abs_error_across_sources", bySplit}, {"skipped", skipped}};
}

std::vector<FittedConstant> fitConstants(const QJsonArray& trainingRows, const QJsonArray& servingRows,
                                         const ValidationSplit& split, const Catalog& catalog)
{
    // Keep only calibration rows before anything is evaluated.
    std::map<std::pair<std::string, std::string>, std::vector<const RowPrediction*>> groups;
    std::vector<RowPrediction> predicted;
    for (const QJsonArray* file : {&trainingRows, &servingRows}) {
        QJsonArray calibration;
        for (const auto& v : *file)
            if (split.splitOf(v.toObject()) == "calibration")
                calibration.append(v);
        for (RowPrediction& p : predictRows(calibration, split, catalog))
            if (p.predictedOk() && !p.family.empty())
                predicted.push_back(std::move(p));
    }
    for (const RowPrediction& p : predicted)
        groups[{p.metric, p.family}].push_back(&p);
    std::vector<FittedConstant> out;
    for (const auto& [key, list] : groups) {
        const auto& [metric, family] = key;
        FittedConstant c;
        c.key = "software_overhead." + metric + "." + family;
        c.description =
            metric == "step_time"
                ? "measured ÷ predicted step time of " + family + " training (a step-time multiplier)"
                : "measured ÷ predicted output tokens/s of " + family + " serving (a throughput multiplier)";
        c.method = "least squares of ln(measured / predicted) over the calibration rows: exp(mean ln(measured / "
                   "predicted)), with the shipped catalog and assumption defaults";
        double sum = 0.0;
        std::set<std::string> sources;
        for (const RowPrediction* p : list) {
            sum += std::log(p->measured / p->predicted);
            sources.insert(p->source);
            c.rows.push_back(p->id);
        }
        c.value = std::exp(sum / double(list.size()));
        c.sources.assign(sources.begin(), sources.end());
        std::sort(c.rows.begin(), c.rows.end());
        out.push_back(std::move(c));
    }
    // The GEMM roofline exponent of the serving stacks: predict the tensorrt-llm calibration rows with
    // each exponent of the grid on that stack and keep the one with the least squared log error.
    QJsonArray servingCalibration;
    for (const auto& v : servingRows)
        if (split.splitOf(v.toObject()) == "calibration" && rowFamily(v.toObject(), true) == "tensorrt-llm")
            servingCalibration.append(v);
    if (catalog.softwareStack("tensorrt-llm") && !servingCalibration.empty()) {
        FittedConstant c;
        c.key = kRooflineKey;
        c.description = "exponent p of the serving GEMMs' roofline near the ridge, (compute^p + memory^p)^(1/p) "
                        "(kernels.h; docs/model-reference.md, \"Decode GEMMs near the ridge\")";
        c.method = "the value of {1, 1.25, ..., 2.5, 3, 4, 6, 8} with the least sum of ln(predicted / measured)^2 "
                   "over the tensorrt-llm calibration rows, every other figure as shipped";
        c.applied = true;
        double best = 1e300;
        std::set<std::string> sources;
        for (double p : kRooflineGrid) {
            Catalog withP = catalog;
            for (SoftwareStack& s : withP.softwareStacks)
                if (s.id == "tensorrt-llm")
                    s.gemmRooflineExponent = p;
            double sse = 0.0;
            std::vector<std::string> ids;
            for (const RowPrediction& r : predictRows(servingCalibration, split, withP))
                if (r.predictedOk()) {
                    sse += std::pow(std::log(r.predicted / r.measured), 2);
                    ids.push_back(r.id);
                    sources.insert(r.source);
                }
            if (!ids.empty() && sse < best) {
                best = sse;
                c.value = p;
                c.rows = std::move(ids);
            }
        }
        c.sources.assign(sources.begin(), sources.end());
        std::sort(c.rows.begin(), c.rows.end());
        if (!c.rows.empty())
            out.push_back(std::move(c));
    }
    return out;
}

QByteArray fittedToJson(const std::vector<FittedConstant>& constants)
{
    QJsonArray list;
    for (const FittedConstant& c : constants)
        list.append(QJsonObject{{"key", q(c.key)},
                                {"description", q(c.description)},
                                {"value", std::round(c.value * 1e6) / 1e6},
                                {"method", q(c.method)},
                                {"applied", c.applied},
                                {"sources", strings(c.sources)},
                                {"rows", strings(c.rows)}});
    const QJsonObject root{
        {"format_version", 1},
        {"generated_by", kBandsCommand},
        {"note", "Every constant fitted to published measurements, and only to the calibration rows of "
                 "data/validation/split.json (docs/validation.md, \"Held-out validation\"). The software-stack "
                 "factors are computed and listed but not applied: the model's step and serving physics stay as "
                 "published; the GEMM roofline exponent is applied (data/catalog/software-stacks.json carries it) "
                 "(docs/model-reference.md, \"Fitted constants\"). Regenerate, never edit by hand."},
        {"constants", list},
        {"fitted_elsewhere", QJsonArray{q(kElsewhere)}}};
    return QJsonDocument(root).toJson(QJsonDocument::Indented);
}

std::vector<FittedConstant> readFitted(const QByteArray& json, Issues& out)
{
    std::vector<FittedConstant> constants;
    const auto root = io::parseJsonObject(json, out);
    if (!root)
        return constants;
    for (const auto& v : root->value("constants").toArray()) {
        const QJsonObject o = v.toObject();
        FittedConstant c;
        c.key = o.value("key").toString().toStdString();
        c.description = o.value("description").toString().toStdString();
        c.value = o.value("value").toDouble();
        c.method = o.value("method").toString().toStdString();
        c.applied = o.value("applied").toBool();
        for (const auto& s : o.value("sources").toArray())
            c.sources.push_back(s.toString().toStdString());
        for (const auto& s : o.value("rows").toArray())
            c.rows.push_back(s.toString().toStdString());
        constants.push_back(std::move(c));
    }
    return constants;
}

std::vector<ErrorBandClass> errorBandClasses(const std::vector<RowPrediction>& rows)
{
    using Key = std::tuple<std::string, std::string, std::string, std::string, double>;
    std::map<Key, std::vector<const RowPrediction*>> groups;
    for (const RowPrediction& p : rows)
        if (p.predictedOk() && p.split == "heldout" && !p.family.empty() && !p.generation.empty())
            groups[{p.metric, p.generation, p.family, p.parallelism, p.sizeB}].push_back(&p);
    std::vector<ErrorBandClass> out;
    for (const auto& [key, list] : groups) {
        ErrorBandClass c;
        std::tie(c.metric, c.generation, c.family, c.parallelism, c.sizeB) = key;
        std::set<std::string> sources;
        for (const RowPrediction* p : list) {
            c.meanAbsError += std::abs(p->error) / double(list.size());
            c.maxAbsError = std::max(c.maxAbsError, std::abs(p->error));
            sources.insert(p->source);
        }
        // Four decimals: what a planner reads, and stable against the last bit of a float sum.
        c.meanAbsError = std::round(c.meanAbsError * 1e4) / 1e4;
        c.maxAbsError = std::round(c.maxAbsError * 1e4) / 1e4;
        c.rows = int(list.size());
        c.sources.assign(sources.begin(), sources.end());
        out.push_back(std::move(c));
    }
    return out;
}

} // namespace gp::study
