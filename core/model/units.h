// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

namespace gp {

/// Bytes in a GiB: memory sizes are stored in bytes and shown in GiB (GPU memory is sold in
/// binary units; docs/model-reference.md).
inline constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

} // namespace gp
