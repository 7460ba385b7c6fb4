// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "scenariogenerator.h"

#include <cstdint>

namespace gp::bench {

namespace {

/// Small linear congruential generator: the benchmark must not depend on std::rand.
struct Lcg
{
    std::uint64_t state;
    unsigned next()
    {
        return static_cast<unsigned>((state = state * 6364136223846793005ull + 1442695040888963407ull) >> 33);
    }
    int pick(int n) { return static_cast<int>(next() % static_cast<unsigned>(n)); }
};

} // namespace

Scenario generateCluster(const Catalog& catalog, int nodeCount, int tenantCount, int jobsPerTenant, unsigned seed)
{
    Lcg rng{seed};
    const NodeTemplate* t = catalog.nodeTemplate("dgx-h100");
    Scenario s;
    s.name = "Generated " + std::to_string(nodeCount) + "-node cluster";
    s.pricing.preset = "aws-on-demand-2024";
    const int perLeaf = 16, spines = 16;
    const int leaves = (nodeCount + perLeaf - 1) / perLeaf;
    for (int sp = 0; sp < spines; ++sp)
        s.topology.switches.push_back({"spine-" + std::to_string(sp),
                                       "spine-" + std::to_string(sp),
                                       "qm9700",
                                       "spine",
                                       64,
                                       400,
                                       "",
                                       {sp * 100.0, 0}});
    for (int l = 0; l < leaves; ++l) {
        const std::string leaf = "leaf-" + std::to_string(l);
        s.topology.switches.push_back({leaf, leaf, "qm9700", "leaf", 64, 400, "", {l * 100.0, 200}});
        for (int sp = 0; sp < spines; ++sp)
            s.topology.links.push_back(
                {leaf + "-spine-" + std::to_string(sp), leaf, "spine-" + std::to_string(sp), 3200, 1.0});
    }
    for (int i = 0; i < nodeCount; ++i) {
        Node n;
        n.id = "node-" + std::to_string(i);
        n.name = n.id;
        n.templateId = t->id;
        n.gpuId = t->gpuId;
        n.gpuCount = t->gpuCount;
        n.nics = {t->nicCount, t->nicSpeedGbps, t->gpudirectRdma};
        n.position = {(i % 32) * 100.0, 400 + (i / 32) * 100.0};
        const int kind = rng.pick(10);
        if (kind == 0) {
            n.sharing.mode = SharingMode::Mig;
            n.sharing.migInstances = {{"3g.40gb", 0}, {"2g.20gb", 4}, {"1g.10gb", 6}};
        } else if (kind == 1) {
            n.sharing.mode = SharingMode::TimeSlicing;
            n.sharing.replicas = 4;
        } else if (kind == 2) {
            n.sharing.mode = SharingMode::Mps;
            n.sharing.mpsActiveThreadPct = 25;
            n.sharing.mpsMemoryLimitGiB = 19.0;
        }
        s.topology.nodes.push_back(n);
        const std::string leaf = "leaf-" + std::to_string(i / perLeaf);
        s.topology.links.push_back({n.id + "-" + leaf, n.id, leaf, 3200, 1.0});
    }
    const char* small[] = {"llama3-8b", "llama2-7b", "llama2-13b"};
    for (int tn = 0; tn < tenantCount; ++tn) {
        Tenant tenant;
        tenant.id = "tenant-" + std::to_string(tn);
        tenant.name = tenant.id;
        tenant.priority = rng.pick(10);
        for (int j = 0; j < jobsPerTenant; ++j) {
            Job job;
            job.id = tenant.id + "-job-" + std::to_string(j);
            job.name = job.id;
            const int kind = rng.pick(20);
            if (kind == 0) { // a large pre-training run
                job.kind = JobKind::Pretraining;
                job.model.preset = "llama3-70b";
                job.parallelism = {8, 4, 1 + rng.pick(4), 1, false, true, Recompute::Selective};
                job.training = TrainingSpec{1e11, 60};
            } else if (kind < 6) { // fine-tuning
                job.kind = rng.pick(2) ? JobKind::FullFinetune : JobKind::Lora;
                job.model.preset = small[rng.pick(3)];
                job.parallelism = {1,     1,     1 + rng.pick(8), job.kind == JobKind::Lora ? 0 : 3,
                                   false, false, Recompute::Full};
                job.training = TrainingSpec{1e9, 30};
                if (job.kind == JobKind::Lora)
                    job.lora = LoraSpec{16, 32};
            } else { // serving
                job.kind = JobKind::Inference;
                job.model.preset = small[rng.pick(3)];
                job.precision = rng.pick(2) ? Precision::Bf16 : Precision::Int8;
                job.parallelism.dp = 1 + rng.pick(3);
                job.inference = InferenceSpec{5.0, 2048, 256, 4 + rng.pick(12)};
            }
            job.batch = {1, job.parallelism.dp * 8};
            tenant.jobs.push_back(job);
        }
        s.tenants.push_back(tenant);
    }
    return s;
}

} // namespace gp::bench
