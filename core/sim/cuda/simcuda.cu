// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "simcuda.h"

#include <cuda_runtime.h>

#include <vector>

namespace gp::sim::cuda {

namespace {

__global__ void trialsKernel(SimView v, std::uint64_t seed, int trials, double* scratch, double* days, double* slow,
                             int* oom, double* peak, int* congested, int* histogram, double* ttft, double* itl)
{
    const int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= trials)
        return;
    const long long J = v.jobCount, G = v.gpuCount;
    TrialOut o{days + t * J, slow + t * J, oom + t * G, peak + t * G, congested, histogram, ttft + t * J, itl + t * J};
    runTrial(v, seed, static_cast<std::uint32_t>(t), scratch + t * (3 * J + 1), o);
}

/// Device buffers freed when the run ends, whatever happens.
struct Buffers
{
    std::vector<void*> all;
    ~Buffers()
    {
        for (void* p : all)
            cudaFree(p);
    }
    template <typename T> T* alloc(std::size_t count, cudaError_t& err)
    {
        void* p = nullptr;
        err = cudaMalloc(&p, (count > 0 ? count : 1) * sizeof(T));
        if (err == cudaSuccess)
            all.push_back(p);
        return static_cast<T*>(p);
    }
};

} // namespace

bool runTrials(const HostArrays& in, std::uint64_t seed, int trials, TrialOutputs& out, std::string& device,
               std::string& error)
{
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
        error = "no CUDA GPU is visible";
        return false;
    }
    cudaDeviceProp prop{};
    cudaGetDeviceProperties(&prop, 0);
    device = prop.name;
    const SimView& h = in.view;
    const std::size_t J = static_cast<std::size_t>(h.jobCount), G = static_cast<std::size_t>(h.gpuCount),
                      L = static_cast<std::size_t>(h.linkCount),
                      bins = static_cast<std::size_t>(h.params.histogramBins);
    Buffers b;
    cudaError_t err = cudaSuccess;
    auto check = [&](cudaError_t e) {
        if (e != cudaSuccess && err == cudaSuccess)
            err = e;
        return err == cudaSuccess;
    };
    SimView d = h;
    auto upload = [&](auto* host, std::size_t n, auto*& dst) {
        using T = std::remove_const_t<std::remove_pointer_t<decltype(host)>>;
        cudaError_t e = cudaSuccess;
        T* p = b.alloc<T>(n, e);
        check(e);
        if (err == cudaSuccess && n > 0)
            check(cudaMemcpy(p, host, n * sizeof(T), cudaMemcpyHostToDevice));
        dst = p;
    };
    upload(h.jobs, J, d.jobs);
    upload(h.units, static_cast<std::size_t>(in.unitCount), d.units);
    upload(h.gpus, G, d.gpus);
    upload(h.uses, static_cast<std::size_t>(in.useCount), d.uses);
    upload(h.links, L, d.links);
    cudaError_t e = cudaSuccess;
    double* scratch = b.alloc<double>(static_cast<std::size_t>(trials) * (3 * J + 1), e);
    check(e);
    double* days = b.alloc<double>(static_cast<std::size_t>(trials) * J, e);
    check(e);
    double* slow = b.alloc<double>(static_cast<std::size_t>(trials) * J, e);
    check(e);
    int* oom = b.alloc<int>(static_cast<std::size_t>(trials) * G, e);
    check(e);
    double* peak = b.alloc<double>(static_cast<std::size_t>(trials) * G, e);
    check(e);
    int* congested = b.alloc<int>(L, e);
    check(e);
    int* histogram = b.alloc<int>(L * bins, e);
    check(e);
    double* ttft = b.alloc<double>(static_cast<std::size_t>(trials) * J, e);
    check(e);
    double* itl = b.alloc<double>(static_cast<std::size_t>(trials) * J, e);
    check(e);
    if (err == cudaSuccess) {
        check(cudaMemset(congested, 0, (L > 0 ? L : 1) * sizeof(int)));
        check(cudaMemset(histogram, 0, (L * bins > 0 ? L * bins : 1) * sizeof(int)));
    }
    if (err == cudaSuccess) {
        const int block = 128;
        trialsKernel<<<(trials + block - 1) / block, block>>>(d, seed, trials, scratch, days, slow, oom, peak,
                                                              congested, histogram, ttft, itl);
        check(cudaGetLastError());
        check(cudaDeviceSynchronize());
    }
    TrialOutputs result;
    result.completionDays.resize(static_cast<std::size_t>(trials) * J);
    result.slowdown.resize(static_cast<std::size_t>(trials) * J);
    result.oom.resize(static_cast<std::size_t>(trials) * G);
    result.peakBytes.resize(static_cast<std::size_t>(trials) * G);
    result.congestedPoints.resize(L);
    result.histogram.resize(L * bins);
    result.ttft.resize(static_cast<std::size_t>(trials) * J);
    result.itl.resize(static_cast<std::size_t>(trials) * J);
    auto download = [&](auto& v, const auto* src) {
        if (err == cudaSuccess && !v.empty())
            check(cudaMemcpy(v.data(), src, v.size() * sizeof(v[0]), cudaMemcpyDeviceToHost));
    };
    download(result.completionDays, days);
    download(result.slowdown, slow);
    download(result.oom, oom);
    download(result.peakBytes, peak);
    download(result.congestedPoints, congested);
    download(result.histogram, histogram);
    download(result.ttft, ttft);
    download(result.itl, itl);
    if (err != cudaSuccess) {
        error = std::string("CUDA: ") + cudaGetErrorString(err);
        return false;
    }
    out = std::move(result);
    return true;
}

} // namespace gp::sim::cuda
