// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "measurementcheck.h"

#include "model/enumnames.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <map>
#include <optional>
#include <regex>

namespace gp::study {

namespace {

std::string alnum(const std::string& s)
{
    std::string out;
    for (const char c : s)
        if (std::isalnum(static_cast<unsigned char>(c)))
            out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

std::optional<double> numberOf(const std::map<std::string, std::string>& config, const char* key)
{
    const auto it = config.find(key);
    if (it == config.end() || it->second.empty())
        return std::nullopt;
    double v = 0.0;
    const char* end = it->second.data() + it->second.size();
    const auto [ptr, ec] = std::from_chars(it->second.data(), end, v);
    if (ec != std::errc() || ptr != end || !std::isfinite(v))
        return std::nullopt;
    return v;
}

std::string text(double v)
{
    char buf[32];
    const auto [ptr, ec] = std::to_chars(buf, buf + sizeof buf, v);
    return ec == std::errc() ? std::string(buf, ptr) : std::string();
}

bool isServing(MeasuredQuantity q)
{
    return q == MeasuredQuantity::OutputTokensPerS || q == MeasuredQuantity::RequestsPerS ||
           q == MeasuredQuantity::TtftMs || q == MeasuredQuantity::ItlMs;
}

bool isTraining(MeasuredQuantity q)
{
    return q == MeasuredQuantity::StepTimeS || q == MeasuredQuantity::TrainTokensPerS ||
           q == MeasuredQuantity::TflopsPerGpu;
}

/// The precision a trtllm-bench report states: its quantization, else its dtype; nullopt where it
/// names one gpuplan has no precision for (NVFP4, mixed schemes it does not model).
std::optional<Precision> statedPrecision(const std::map<std::string, std::string>& config)
{
    if (auto p = config.find("precision"); p != config.end())
        return enumFromName<Precision>(p->second);
    std::string q;
    if (auto it = config.find("quantization"); it != config.end())
        q = alnum(it->second);
    if (!q.empty() && q != "none") {
        if (q.rfind("fp8", 0) == 0)
            return Precision::Fp8;
        if (q.rfind("w4a16", 0) == 0 || q == "int4weightonly" || q.rfind("w4a8", 0) == 0)
            return Precision::Int4;
        if (q.rfind("int8", 0) == 0 || q.rfind("w8a", 0) == 0)
            return Precision::Int8;
        return std::nullopt;
    }
    const auto d = config.find("dtype");
    if (d == config.end())
        return std::nullopt;
    const std::string dtype = alnum(d->second);
    if (dtype == "bfloat16" || dtype == "bf16")
        return Precision::Bf16;
    if (dtype == "float16" || dtype == "fp16" || dtype == "half")
        return Precision::Fp16;
    if (dtype == "float32" || dtype == "fp32")
        return Precision::Fp32;
    return std::nullopt;
}

} // namespace

std::string ConfigMismatch::message() const
{
    return "the file ran " + key + " " + fileValue + ", the job has " + key + " " + jobValue;
}

std::string gpuFamily(const std::string& name)
{
    static const std::regex family(R"((?:^|[^A-Z0-9])((?:GB|GH|MI|[ABHLTV])\d{2,3}[A-Z]?)(?=$|[^A-Z0-9]))");
    std::string upper = name;
    std::transform(upper.begin(), upper.end(), upper.begin(),
                   [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
    std::smatch m;
    return std::regex_search(upper, m, family) ? m[1].str() : std::string();
}

const ModelPreset* presetNamed(const std::string& model, const Catalog& catalog)
{
    const std::string wanted = alnum(model);
    const ModelPreset* best = nullptr;
    std::size_t bestLength = 0;
    for (const ModelPreset& p : catalog.models)
        for (const std::string& name : {alnum(p.id), alnum(p.name)})
            if (!name.empty() && name.size() > bestLength && wanted.find(name) != std::string::npos) {
                best = &p;
                bestLength = name.size();
            }
    return best;
}

ConfigCheck checkAgainstJob(const Measurement& m, const Job& j, const Catalog& catalog, const std::string& planGpuId)
{
    ConfigCheck out;
    const auto& c = m.config;
    const auto mismatch = [&](std::string key, std::string file, std::string job) {
        out.mismatches.push_back({std::move(key), std::move(file), std::move(job)});
    };
    const bool serving = j.kind == JobKind::Inference;
    if (isServing(m.quantity) && !serving)
        mismatch("kind", "serving (" + std::string(quantityName(m.quantity)) + ")",
                 std::string(enumName(j.kind)) + " (a training job)");
    if (isTraining(m.quantity) && serving)
        mismatch("kind", "training (" + std::string(quantityName(m.quantity)) + ")", "inference (a serving job)");
    if (auto it = c.find("model"); it != c.end() && !j.model.preset.empty()) {
        const ModelPreset* named = presetNamed(it->second, catalog);
        if (!named)
            out.notes.push_back("model '" + it->second + "' names no preset gpuplan knows: not checked");
        else if (named->id != j.model.preset)
            mismatch("model", "'" + it->second + "' (" + named->id + ")", j.model.preset);
    }
    const auto exact = [&](const char* key, int job) {
        if (const auto v = numberOf(c, key); v && std::lround(*v) != job)
            mismatch(key, text(*v), std::to_string(job));
    };
    exact("tp", j.parallelism.tp);
    exact("pp", j.parallelism.pp);
    exact("ep", j.parallelism.ep);
    exact("cp", j.parallelism.cp);
    if (const auto p = statedPrecision(c); p && *p != j.precision)
        mismatch("precision", std::string(enumName(*p)), std::string(enumName(j.precision)));
    if (serving && j.inference) {
        const auto near = [&](const char* key, int job) {
            if (const auto v = numberOf(c, key); v && job > 0 && std::abs(*v - job) > kSequenceLengthTolerance * job)
                mismatch(key, text(*v), std::to_string(job));
        };
        near("isl", j.inference->promptTokens());
        near("osl", j.inference->outputTokens);
        exact("max_concurrency", j.inference->concurrency);
        exact("concurrency", j.inference->concurrency);
    } else {
        exact("gpus", j.parallelism.gpus());
        exact("global_batch", j.batch.global);
        exact("micro_batch", j.batch.micro);
    }
    if (auto it = c.find("gpu"); it != c.end()) {
        const GpuSpec* gpu = planGpuId.empty() ? nullptr : catalog.gpu(planGpuId);
        const std::string file = gpuFamily(it->second);
        const std::string plan = gpu ? gpuFamily(gpu->name) : std::string();
        if (file.empty() || plan.empty())
            out.notes.push_back("GPU '" + it->second + "': not checked (" +
                                (file.empty() ? "no GPU family in the name" : "the plan does not place the job") + ")");
        else if (file != plan)
            mismatch("gpu", "'" + it->second + "' (" + file + ")", gpu->name + " (" + plan + ")");
    }
    return out;
}

std::vector<Contradiction> contradictions(const std::vector<Measurement>& items, double tolerance)
{
    // One group per job, quantity, statistic and stated load: the lowest and highest value of each.
    static const char* const kLoad[] = {"max_concurrency", "concurrency", "request_rate", "isl", "osl",
                                        "global_batch",    "tp",          "pp",           "gpus"};
    std::map<std::string, std::pair<std::size_t, std::size_t>> groups; // key -> (lowest, highest)
    for (std::size_t i = 0; i < items.size(); ++i) {
        const Measurement& m = items[i];
        std::string key =
            m.jobId + '\n' + std::string(quantityName(m.quantity)) + '\n' + std::string(statisticName(m.statistic));
        for (const char* load : kLoad) {
            const auto it = m.config.find(load);
            key += '\n' + (it == m.config.end() ? std::string() : it->second);
        }
        auto [g, added] = groups.try_emplace(key, i, i);
        if (added)
            continue;
        if (m.value < items[g->second.first].value)
            g->second.first = i;
        if (m.value > items[g->second.second].value)
            g->second.second = i;
    }
    std::vector<Contradiction> out;
    for (const auto& [key, range] : groups) {
        const double low = items[range.first].value;
        const double high = items[range.second].value;
        const double relative = low > 0.0 ? (high - low) / low : (high > 0.0 ? 1e9 : 0.0);
        if (relative > tolerance)
            out.push_back({std::min(range.first, range.second), std::max(range.first, range.second), relative});
    }
    std::sort(out.begin(), out.end(), [](const Contradiction& a, const Contradiction& b) { return a.first < b.first; });
    return out;
}

} // namespace gp::study
