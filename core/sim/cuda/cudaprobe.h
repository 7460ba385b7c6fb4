// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include <string>

namespace gp::sim::cuda {

/// Number of CUDA devices visible to this process; on 0 `detail` says why.
int deviceCount(std::string& device0Name, std::string& detail);

} // namespace gp::sim::cuda
