// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "model/catalog.h"
#include "model/job.h"
#include "model/measurement.h"

#include <string>
#include <vector>

namespace gp::study {

/// Relative difference beyond which the mean input or output length a benchmark ran differs from
/// the job's (docs/measurements.md#checked-against-the-job): datasets drawn around a mean land within it.
inline constexpr double kSequenceLengthTolerance = 0.10;

/// Relative difference (to the smaller value) beyond which two measurements of one job, quantity
/// and statistic contradict each other (docs/measurements.md#contradictions): repeated runs of one
/// configuration land well within it.
inline constexpr double kContradictionTolerance = 0.15;

/// Something a measurement's source says it ran that differs from the job.
struct ConfigMismatch
{
    std::string key;       ///< "model", "tp", "pp", "precision", "isl", "concurrency", "gpu", "kind" ...
    std::string fileValue; ///< as the file says
    std::string jobValue;  ///< as the plan says
    /// "the file ran tp 4, the job chat-70b has tp 8"
    std::string message() const;
};

struct ConfigCheck
{
    std::vector<ConfigMismatch> mismatches;
    /// What could not be checked and why ("model 'my-ckpt' is no preset gpuplan knows").
    std::vector<std::string> notes;
};

/// What `m.config` says it ran against job `j` placed on GPU model `planGpuId` ("" unplaced):
/// the model (by preset), tp, pp, ep, cp, the GPUs of a training run, precision, input and output
/// length (within kSequenceLengthTolerance), concurrency, global and micro batch, the GPU family,
/// and whether the figure is a training or serving one. Only where both state the value.
ConfigCheck checkAgainstJob(const Measurement& m, const Job& j, const Catalog& catalog, const std::string& planGpuId);

/// Two measurements, by index, that contradict each other.
struct Contradiction
{
    std::size_t first = 0;
    std::size_t second = 0;
    double relative = 0.0; ///< |a - b| / min(a, b)
};

/// For each group of `items` with one job, quantity, statistic and stated load (concurrency, request
/// rate, input and output length, batch, tp, pp, GPUs: runs of different loads are meant to differ),
/// its lowest and highest value when they differ by more than `tolerance`.
std::vector<Contradiction> contradictions(const std::vector<Measurement>& items,
                                          double tolerance = kContradictionTolerance);

/// The GPU family a product name states ("NVIDIA H100 80GB HBM3" -> "H100", "MI300X"), "" if none.
std::string gpuFamily(const std::string& name);

/// The catalog preset a model name from a benchmark file names ("meta-llama/Llama-3.1-8B-Instruct"
/// -> llama3.1-8b), by the longest preset id or name its letters and digits contain; nullptr if none.
const ModelPreset* presetNamed(const std::string& model, const Catalog& catalog);

} // namespace gp::study
