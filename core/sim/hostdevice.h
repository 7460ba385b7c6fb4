// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

// Functions marked GP_HD compile for the host and, under nvcc, for the device too: the
// CPU backend and the CUDA kernels share one implementation (architecture.md §9.8).
#if defined(__CUDACC__)
#define GP_HD __host__ __device__
#else
#define GP_HD
#endif
