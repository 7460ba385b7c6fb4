// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// Issue 38, deliverable 1, Slurm's half (split from tst_clusterimport): what the Slurm installed
// here printed (tests/data/cluster/slurm, captured by capture.sh) as JSON and as scontrol's text,
// imported alike; bad input, counts past any real cluster's included, refused naming the file and
// field.
#include "clusterimportsupport.h"

#include "io/clusterimport.h"

#include <QTest>

using namespace gp;
using namespace gp::test;
using gp::test::cluster::dump;
using gp::test::cluster::fixture;
using gp::test::cluster::input;
using gp::test::cluster::job;
using gp::test::cluster::slurmOptions;
using gp::test::cluster::tenantOf;

class TestSlurmImport : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    /// Slurm 22.05's sinfo/squeue --json, captured from the single-node Slurm of capture.sh:
    /// 4 whole H100s and one H100 in 7 MIG 1g.10gb instances; running jobs pinned to the node,
    /// the pending one not; the CPU-only job left out; tenants are accounts.
    void slurmJsonImports()
    {
        const auto r = io::importSlurm(input(fixture("slurm/sinfo.json")), input(fixture("slurm/squeue.json")),
                                       slurmOptions(), bundledCatalog());
        QVERIFY2(r.ok(), qPrintable(dump(r.issues)));
        const Scenario& s = *r;
        QCOMPARE(s.topology.nodes.size(), std::size_t(1));
        const Node& n = s.topology.nodes.front();
        QCOMPARE(n.gpuId, std::string("h100-80gb"));
        QCOMPARE(n.gpuCount, 5);
        QCOMPARE(n.sharing.mode, SharingMode::Exclusive);
        QCOMPARE(n.gpuSharing.size(), std::size_t(1));
        QCOMPARE(n.gpuSharing.at(4).mode, SharingMode::Mig);
        QCOMPARE(n.gpuSharing.at(4).migInstances.size(), std::size_t(7));
        const std::pair<const char*, int> units[] = {
            {"llama-pretrain", 2}, {"chat-serve", 3}, {"notebook", 1}, {"eval-sweep", 2}, {"big-finetune", 4}};
        for (const auto& [name, count] : units) {
            const Job* j = job(s, name);
            QVERIFY2(j, name);
            QCOMPARE(j->parallelism.gpus(), count);
            QCOMPARE(j->imported->source, std::string("slurm"));
        }
        QVERIFY(!job(s, "cpu-only"));
        QCOMPARE(tenantOf(s, "llama-pretrain")->name, std::string("research"));
        QCOMPARE(tenantOf(s, "chat-serve")->name, std::string("product"));
        QVERIFY(job(s, "llama-pretrain")->pin);
        QVERIFY(!job(s, "big-finetune")->pin); // pending: no node yet
        QCOMPARE(job(s, "eval-sweep")->imported->members, (std::vector<std::string>{"4_0", "4_1"}));
        QCOMPARE(job(s, "eval-sweep")->imported->workload, std::string("SlurmArray/4"));
    }

    /// scontrol's one-liners from the same cluster give the same scenario as the JSON.
    void slurmTextMatchesJson()
    {
        const auto json = io::importSlurm(input(fixture("slurm/sinfo.json")), input(fixture("slurm/squeue.json")),
                                          slurmOptions(), bundledCatalog());
        const auto text = io::importSlurm(input(fixture("slurm/scontrol-nodes.txt")),
                                          input(fixture("slurm/scontrol-jobs.txt")), slurmOptions(), bundledCatalog());
        QVERIFY2(json.ok() && text.ok(), qPrintable(dump(json.issues) + dump(text.issues)));
        QVERIFY(*json == *text);
    }

    void slurmBadInput()
    {
        // Slurm's "h100" could be any H100: the user says which.
        const auto unmapped = io::importSlurm(input(fixture("slurm/sinfo.json")), input(fixture("slurm/squeue.json")),
                                              {}, bundledCatalog());
        QVERIFY(!unmapped.ok());
        QVERIFY2(dump(unmapped.issues)
                     .contains("slurm/sinfo.json: nodes[0].gres: GPU product 'h100' is not a GPU "
                               "gpuplan knows; name the catalog GPU it is with --map-gpu 'h100=ID'"),
                 qPrintable(dump(unmapped.issues)));
        // Another file where the jobs belong.
        const auto swapped = io::importSlurm(input(fixture("slurm/sinfo.json")), input(fixture("slurm/sinfo.json")),
                                             slurmOptions(), bundledCatalog());
        QVERIFY(!swapped.ok());
        QVERIFY2(dump(swapped.issues).contains("jobs: missing: not what `squeue --json` prints"),
                 qPrintable(dump(swapped.issues)));
        // A node larger than a scenario's node, and a count past any real one, refused before anything is made.
        QByteArray nodes = readAll(fixture("slurm/scontrol-nodes.txt"));
        nodes.replace("Gres=gpu:h100:4,", "Gres=gpu:h100:500,");
        const auto big = io::importSlurm({nodes, "nodes.txt"}, input(fixture("slurm/scontrol-jobs.txt")),
                                         slurmOptions(), bundledCatalog());
        QVERIFY(!big.ok());
        QVERIFY2(dump(big.issues)
                     .contains("nodes.txt: line 1, Gres: node 'vm' has 500 GPUs and 7 MIG instances; a "
                               "gpuplan node has at most 64 GPUs"),
                 qPrintable(dump(big.issues)));
        nodes.replace("Gres=gpu:h100:500,", "Gres=gpu:h100:99999999999,");
        const auto huge = io::importSlurm({nodes, "nodes.txt"}, input(fixture("slurm/scontrol-jobs.txt")),
                                          slurmOptions(), bundledCatalog());
        QVERIFY(!huge.ok());
        QVERIFY2(dump(huge.issues).contains("is not a GRES list"), qPrintable(dump(huge.issues)));
        // A node line of thousands of GRES items: its sums saturate and it is refused, never wrapped.
        QByteArray wide = readAll(fixture("slurm/scontrol-nodes.txt"));
        QByteArray items;
        for (int i = 0; i < 2200; ++i)
            items += "gpu:h100:999999,";
        wide.replace("Gres=gpu:h100:4,", "Gres=" + items);
        const auto wrapped = io::importSlurm({wide, "nodes.txt"}, input(fixture("slurm/scontrol-jobs.txt")),
                                             slurmOptions(), bundledCatalog());
        QVERIFY(!wrapped.ok());
        QVERIFY2(dump(wrapped.issues).contains("a gpuplan node has at most 64 GPUs"), qPrintable(dump(wrapped.issues)));
        // A job holding more GPU units than any cluster has (the fuzzer's overflow): refused by
        // name, with the limit; no sum wraps around.
        QByteArray jobs = readAll(fixture("slurm/scontrol-jobs.txt"));
        jobs.replace(jobs.indexOf("NumNodes=1"), 10, "NumNodes=99900");
        jobs.replace("TresPerNode=gres:gpu:h100:2", "TresPerNode=gres:gpu:h100:999999");
        const auto many = io::importSlurm(input(fixture("slurm/scontrol-nodes.txt")), {jobs, "jobs.txt"},
                                          slurmOptions(), bundledCatalog());
        QVERIFY(!many.ok());
        QVERIFY2(dump(many.issues)
                     .contains("jobs.txt: line 1, TresPerNode: job 1 holds 999999 GPU units per node on 99900 nodes, "
                               "more than the 1000000 units one imported workload may hold"),
                 qPrintable(dump(many.issues)));
        const auto textSwapped =
            io::importSlurm(input(fixture("slurm/scontrol-jobs.txt")), input(fixture("slurm/scontrol-jobs.txt")),
                            slurmOptions(), bundledCatalog());
        QVERIFY(!textSwapped.ok());
        QVERIFY2(dump(textSwapped.issues).contains("scontrol-jobs.txt: line 1: not a node"),
                 qPrintable(dump(textSwapped.issues)));
    }
};

QTEST_GUILESS_MAIN(TestSlurmImport)
#include "tst_slurmimport.moc"
