// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// predictRows (validationrows.h): each row's scenario evaluated with the shipped defaults and
// compared with what the source measured.
#include "validationrowjson.h"
#include "validationrows.h"

#include "calc/errorband.h"
#include "calc/evaluate.h"
#include "calc/modelsize.h"
#include "calc/parallel.h"
#include "calc/perfmodel.h"
#include "io/scenarioreader.h"
#include "model/validation.h"

#include <algorithm>
#include <cmath>

namespace gp::study {

using rowjson::contains;
using rowjson::featureHandled;
using rowjson::intOr;
using rowjson::lower;
using rowjson::positive;
using rowjson::str;

std::vector<RowPrediction> predictRows(const QJsonArray& rows, const ValidationSplit& split, const Catalog& catalog)
{
    std::vector<RowPrediction> out(static_cast<std::size_t>(rows.size()));
    calc::runParts(int(rows.size()), [&](int i) {
        const QJsonObject row = rows[i].toObject();
        RowPrediction& p = out[std::size_t(i)];
        p.index = i;
        p.id = str(row.value("id"));
        p.source = str(row.value("source"));
        p.serving = row.contains("engine");
        p.split = split.splitOf(row);
        p.metric = p.serving ? "output_tokens_per_s" : "step_time";
        p.family = rowFamily(row, p.serving);
        if (const GpuSpec* gpu = catalog.gpu(str(row.value("gpu_catalog_id"))))
            p.generation = calc::gpuGeneration(*gpu);
        if (row.value("incomplete").toBool()) {
            std::string missing;
            for (const auto& f : row.value("missing_fields").toArray())
                missing += (missing.empty() ? "" : ", ") + str(f);
            p.skipReason = "incomplete: " + (missing.empty() ? std::string("fields not printed") : missing);
            return;
        }
        for (const auto& need : row.value("needs_features").toArray())
            if (!featureHandled(str(need))) {
                p.skipReason = "needs feature: " + str(need);
                return;
            }
        if (!p.serving && row.contains("task") && str(row.value("task")) != "pretraining") {
            p.skipReason = "needs feature: " + str(row.value("task")) + " rows (the harness builds pre-training jobs)";
            return;
        }
        // What was measured, as the metric the harness compares.
        if (p.serving) {
            if (const auto v = positive(row.value("measured_output_tokens_per_s"))) {
                p.measured = *v;
                p.measuredFrom = "measured_output_tokens_per_s";
            } else if (const auto u = positive(row.value("measured_tokens_per_s_unspecified"));
                       u && contains(lower(str(row.value("throughput_kind"))), "output tokens")) {
                p.measured = *u;
                p.measuredFrom = "measured_tokens_per_s_unspecified (output tokens per throughput_kind)";
            }
            if (str(row.value("ttft_stat")) == "mean")
                if (const auto v = positive(row.value("measured_ttft_ms")))
                    p.measuredTtftS = *v / 1000.0;
            if (str(row.value("itl_stat")) == "mean")
                if (const auto v = positive(row.value("measured_itl_ms")))
                    p.measuredItlS = *v / 1000.0;
        } else if (const auto s = positive(row.value("measured_step_time_s"))) {
            p.measured = *s;
            p.measuredFrom = "measured_step_time_s";
        } else if (const auto tps = positive(row.value("measured_tokens_per_s_per_gpu"))) {
            // A step is global batch × sequence tokens over all GPUs.
            p.measured = row.value("global_batch").toDouble() * row.value("seq_len").toDouble() /
                         (*tps * row.value("gpu_count").toDouble());
            p.measuredFrom = "global_batch × seq_len ÷ (measured_tokens_per_s_per_gpu × gpu_count)";
        }
        if (!(p.measured > 0.0)) {
            p.skipReason = "no measured throughput of a kind the harness compares";
            return;
        }
        const auto scenarioJson = scenarioForRow(row, p.serving, catalog);
        if (!scenarioJson) {
            p.skipReason = scenarioJson.issues.front().message;
            return;
        }
        const io::ScenarioReadResult scenario = io::readScenarioJson(*scenarioJson, catalog);
        if (!scenario) {
            // The first error names the reason; warnings and the rest are counted, so that rows
            // refused for one cause group under one line of the report.
            std::string first;
            int errors = 0;
            for (const Issue& i : scenario.issues)
                if (i.isError() && errors++ == 0)
                    first = i.toString();
            p.skipReason = "scenario rejected: " + first +
                           (errors > 1 ? " (and " + std::to_string(errors - 1) + " more errors)" : "");
            return;
        }
        const Job& job = scenario->tenants.front().jobs.front();
        if (const auto arch = architectureOf(job.model, catalog)) {
            p.sizeB = calc::sizeClassB(calc::parameterCount(*arch));
            const int ep = intOr(row.value("ep"), 1);
            p.parallelism = calc::parallelismKind(
                arch->experts > 1 || ep > 1, !p.serving && (job.parallelism.fsdp || job.parallelism.zeroStage >= 3));
        }
        const calc::Evaluation ev = calc::evaluate(*scenario, catalog);
        const calc::JobResult& r = ev.jobs.front();
        if (!r.placed) {
            p.skipReason = "not placed: " + r.reason;
            return;
        }
        if (p.serving) {
            if (!r.serving) {
                p.skipReason = "no serving result";
                return;
            }
            p.predicted = r.serving->outputTokensPerS;
            if (!r.serving->saturated) {
                p.predictedTtftS = r.serving->ttftS;
                p.predictedItlS = r.serving->itlS;
                // A run of N requests at a fixed rate: the benchmark divides the output tokens by the
                // time from the first arrival to the last completion, N / rate plus the last request's
                // own response, not by the steady state's N / rate (docs/validation.md, "Online rows").
                const auto rate = positive(row.value("request_rate_rps"));
                const auto requests = positive(row.value("num_requests"));
                const int osl = intOr(row.value("osl"), 0);
                if (rate && requests && osl > 0) {
                    const double response = r.serving->ttftS + (osl - 1.0) * r.serving->itlS;
                    p.predicted = *requests * osl / (*requests / *rate + response);
                }
                // An online run of N requests all at once, all N within one batch (the online INF
                // rows): a single burst, not a steady state (the offline runs keep the steady state:
                // docs/validation.md, "Online rows"). Every prompt is prefilled first (N x the engine time one
                // prompt adds to its iterations), then the batch decodes O iterations; TTFT is on
                // average half the prefill phase plus one prompt's own, and a request's token gaps
                // share the rest of the run (docs/validation.md, "Online rows").
                const double replicas = std::max(job.parallelism.dp, 1);
                const double perReplica = requests ? *requests / replicas : 0.0;
                const double ratePerReplica = r.serving->requestsPerS / replicas;
                const bool online = contains(lower(str(row.value("benchmark_mode"))), "online");
                if (online && !rate && !positive(row.value("concurrency")) && requests && osl > 1 &&
                    perReplica <= r.serving->maxBatch / replicas && ratePerReplica > 0) {
                    const double perPrompt = r.serving->prefillBusy / ratePerReplica;
                    const double prefillPhase = perReplica * perPrompt;
                    const double run = prefillPhase + osl * r.serving->decodeIterationS;
                    const double ttft = prefillPhase / 2.0 + perPrompt;
                    p.predicted = *requests * osl / run;
                    p.predictedTtftS = ttft;
                    p.predictedItlS = std::max(run - ttft, 0.0) / (osl - 1.0);
                }
            }
        } else {
            p.predicted = r.perf.stepTimeS;
            for (const calc::StepPart& part : calc::stepParts())
                p.stepBreakdownS[QLatin1String(part.key)] = r.perf.breakdown.*part.value;
        }
        if (!(p.predicted > 0.0) || !std::isfinite(p.predicted)) {
            p.skipReason = "no prediction (the model gave " + std::to_string(p.predicted) + ")";
            return;
        }
        p.error = p.predicted / p.measured - 1.0;
    });
    return out;
}

} // namespace gp::study
