// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "simbackend.h"

#ifdef GPUPLAN_HAVE_CUDA
#include "cuda/cudaprobe.h"
#endif

namespace gp::sim {

BackendInfo probeBackends()
{
    BackendInfo info;
#ifdef GPUPLAN_HAVE_CUDA
    info.cudaCompiled = true;
    info.cudaDevices = cuda::deviceCount(info.cudaDevice, info.detail);
#else
    info.detail = "built without CUDA (nvcc was not found at configure time)";
#endif
    return info;
}

} // namespace gp::sim
