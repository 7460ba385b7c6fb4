// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include <string>

namespace gp::sim {

/// Which simulation backends this build and this machine offer. The CPU backend always
/// exists; the CUDA one needs a build with nvcc and a visible GPU.
struct BackendInfo
{
    bool cudaCompiled = false;
    int cudaDevices = 0;
    std::string cudaDevice; ///< name of device 0, "" when none
    std::string detail;     ///< why CUDA is unavailable, when it is

    bool cudaUsable() const { return cudaCompiled && cudaDevices > 0; }
};

BackendInfo probeBackends();

} // namespace gp::sim
