// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "model/issue.h"
#include "model/measurement.h"

#include <QByteArray>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gp::io {

/// The tools whose result files gpuplan reads as measurements (docs/measurements.md#benchmark-files).
enum class BenchmarkTool
{
    TrtllmBench, ///< "trtllm-bench": `trtllm-bench throughput --report_json` (JSON) or its printed report (text)
    Vllm,        ///< "vllm": `vllm bench serve --save-result` / benchmarks/benchmark_serving.py (JSON)
    Sglang,      ///< "sglang": `python -m sglang.bench_serving --output-file` (JSON lines)
    GenaiPerf,   ///< "genai-perf": profile_export_genai_perf.json
    Aiperf,      ///< "aiperf": profile_export_aiperf.json
    Megatron,    ///< "megatron": Megatron-LM or Megatron-Bridge training log lines
    Nemo,        ///< "nemo": NeMo training log lines (train_step_timing)
    Composer,    ///< "composer": Composer's console logger (llm-foundry's train.py)
};

/// The name `--tool` takes ("trtllm-bench", "vllm" ...).
std::string_view benchmarkToolName(BenchmarkTool tool);
/// What the tool's files are, for messages ("vLLM serving benchmark result JSON").
std::string_view benchmarkToolTitle(BenchmarkTool tool);
std::optional<BenchmarkTool> benchmarkToolFromName(std::string_view name);
/// Every name, "trtllm-bench, vllm, ...", for usage messages.
std::string benchmarkToolNames();

/// Iterations of a training log counted as warm-up unless the caller says otherwise
/// (docs/measurements.md#training-logs).
inline constexpr int kDefaultSkipWarmup = 10;

struct BenchmarkOptions
{
    /// The tool the file must be from (`--tool`); detected from the content when unset. A file
    /// whose content is another known tool's is refused naming that tool either way.
    std::optional<BenchmarkTool> tool;
    /// Training logs: the first `skipWarmup` iterations are warm-up; a logged figure is kept only
    /// when every iteration it averages comes after them.
    int skipWarmup = kDefaultSkipWarmup;
};

/// The measurements of one file, each with its tool, source (file and JSON path or line), when and
/// what the file says it ran (`config`); `jobId` is left for the caller to set.
struct BenchmarkImport
{
    BenchmarkTool tool = BenchmarkTool::Vllm;
    std::vector<Measurement> measurements;
};

/// The tool whose format `bytes` is, from its content alone; nullopt when it is none of them.
std::optional<BenchmarkTool> detectBenchmarkTool(const QByteArray& bytes);

/// Reads a benchmark result or training log (`file` names it in sources and messages). Errors —
/// garbled or truncated content, an unknown tool version, another tool's format, a figure missing
/// or not a number — name the file, the JSON path or line, and why; nothing is defaulted. Warnings
/// (a figure the file does not have) come with the value.
Result<BenchmarkImport> readBenchmark(const QByteArray& bytes, const std::string& file,
                                      const BenchmarkOptions& options);

} // namespace gp::io
