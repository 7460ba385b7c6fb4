// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// Device discovery for the CUDA backend. No Qt here (DESIGN.md §5.8).
#include "cudaprobe.h"

#include <cuda_runtime.h>

namespace gp::sim::cuda {

int deviceCount(std::string& device0Name, std::string& detail)
{
    int count = 0;
    const cudaError_t err = cudaGetDeviceCount(&count);
    if (err == cudaErrorNoDevice) {
        detail = "no CUDA GPU is visible";
        return 0;
    }
    if (err == cudaErrorInsufficientDriver) {
        detail = "no NVIDIA driver, or one older than the CUDA runtime";
        return 0;
    }
    if (err != cudaSuccess) {
        detail = std::string("no usable CUDA device: ") + cudaGetErrorString(err);
        return 0;
    }
    cudaDeviceProp prop{};
    if (count > 0 && cudaGetDeviceProperties(&prop, 0) == cudaSuccess)
        device0Name = prop.name;
    return count;
}

} // namespace gp::sim::cuda
