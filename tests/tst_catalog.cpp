// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// The bundled catalog: every GPU the foundation issue names, every figure plausible and
// sourced, MIG tables as NVIDIA's MIG User Guide lists them, templates, prices and model
// presets whose stated sizes the parameter formula reproduces.
#include "calc/interference.h"
#include "calc/modelsize.h"
#include "io/catalogreader.h"
#include "model/validation.h"
#include "testsupport.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace gp;

namespace {

bool hasIssue(const Issues& issues, const QString& needle)
{
    for (const auto& i : issues)
        if (QString::fromStdString(i.toString()).contains(needle))
            return true;
    return false;
}

QString dump(const Issues& issues)
{
    QStringList l;
    for (const auto& i : issues)
        l << QString::fromStdString(i.toString());
    return l.join('\n');
}

/// A data folder with the bundled catalog plus one extra file in catalog/.
QString dataDirWith(QTemporaryDir& tmp, const QByteArray& extraName, const QByteArray& extra)
{
    QDir(tmp.path()).mkpath("catalog");
    QDir(tmp.path()).mkpath("models");
    const QDir src(QDir(test::dataDir()).absoluteFilePath("catalog"));
    for (const QString& f : src.entryList({"*.json"}, QDir::Files))
        QFile::copy(src.absoluteFilePath(f), tmp.filePath("catalog/" + f));
    QFile out(tmp.filePath("catalog/" + QString::fromUtf8(extraName)));
    out.open(QIODevice::WriteOnly);
    out.write(extra);
    return tmp.path();
}

} // namespace

class TestCatalog : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void loadsWithoutErrorsOrWarnings()
    {
        const auto r = io::loadCatalog(test::dataDir());
        QVERIFY2(r.ok(), qPrintable(dump(r.issues)));
        QVERIFY2(r.issues.empty(), qPrintable(dump(r.issues))); // a warning = a figure without source
    }

    void requiredGpusWithEveryFigure()
    {
        const Catalog& c = test::bundledCatalog();
        const QStringList required{"a100-40gb",  "a100-80gb",  "h100-80gb", "h100-pcie-80gb", "h100-nvl-94gb",
                                   "h200-141gb", "b200-180gb", "l40s-48gb", "mi300x-192gb"};
        for (const QString& id : required) {
            const GpuSpec* g = c.gpu(id.toStdString());
            QVERIFY2(g, qPrintable(id));
            QVERIFY(g->memoryGB > 0 && g->memoryUsableGiB > 0 && g->memoryUsableGiB <= g->memoryGB * 1.0);
            QVERIFY(g->hbmBandwidthGBps > 0);
            QVERIFY(g->bf16DenseTflops > 0);
            QVERIFY(g->pcieGen >= 4);
            QVERIFY(g->tdpW > 0);
            for (const char* fig : {"memory_gb", "memory_usable_gib", "hbm_bandwidth_gb_per_s", "bf16_dense_tflops",
                                    "fp8_dense_tflops", "scale_up_bandwidth_gb_per_s", "pcie_gen", "tdp_w", "sm_count"})
                QVERIFY2(!g->sources.at(fig).empty(), qPrintable(id + " " + fig));
        }
        // Datasheet figures the later models lean on (NVIDIA H100 datasheet, SXM5).
        const GpuSpec* h100 = c.gpu("h100-80gb");
        QCOMPARE(h100->bf16DenseTflops, 989.0);
        QCOMPARE(h100->fp8DenseTflops, 1979.0);
        QCOMPARE(h100->hbmBandwidthGBps, 3350.0);
        QCOMPARE(h100->scaleUpBandwidthGBps, 900.0);
        QCOMPARE(c.gpu("a100-40gb")->fp8DenseTflops, 0.0); // Ampere has no FP8
        QCOMPARE(c.gpu("mi300x-192gb")->scaleUpKind, std::string("infinity-fabric"));
    }

    void migTablesFollowTheMigUserGuide()
    {
        const Catalog& c = test::bundledCatalog();
        for (const char* id :
             {"a100-40gb", "a100-80gb", "h100-80gb", "h100-pcie-80gb", "h100-nvl-94gb", "h200-141gb", "b200-180gb"}) {
            const GpuSpec* g = c.gpu(id);
            QVERIFY2(g->supportsMig(), id);
            QCOMPARE(g->migProfiles.size(), std::size_t(7));
            int me = 0;
            for (const auto& p : g->migProfiles) {
                me += p.mediaExtensions ? 1 : 0;
                QVERIFY(p.usableGiB < g->memoryUsableGiB + 0.01);
                QVERIFY(p.smCount <= g->smCount);
            }
            QCOMPARE(me, 1); // one +me variant of the 1g profile
        }
        QVERIFY(!c.gpu("l40s-48gb")->supportsMig());
        QVERIFY(!c.gpu("mi300x-192gb")->supportsMig());
        // A100-SXM4-40GB as `nvidia-smi mig -lgip` prints it and the guide's placements.
        const GpuSpec* a = c.gpu("a100-40gb");
        const MigProfile* p3 = a->migProfile("3g.20gb");
        QVERIFY(p3);
        QCOMPARE(p3->profileId, 9);
        QCOMPARE(p3->computeSlices, 3);
        QCOMPARE(p3->memorySlices, 4);
        QCOMPARE(p3->smCount, 42);
        QCOMPARE(p3->maxInstances, 2);
        QCOMPARE(p3->startSlices, (std::vector<int>{0, 4}));
        QCOMPARE(a->migProfile("1g.5gb")->startSlices, (std::vector<int>{0, 1, 2, 3, 4, 5, 6}));
        QCOMPARE(a->migProfile("2g.10gb")->startSlices, (std::vector<int>{0, 2, 4}));
        QCOMPARE(a->migProfile("1g.5gb+me")->maxInstances, 1);
        QCOMPARE(a->migProfile("7g.40gb")->smCount, 98);
        // H100 80GB: 1g.10gb 9.75 GiB with 16 SMs; 7g.80gb 132 SMs.
        QCOMPARE(c.gpu("h100-80gb")->migProfile("1g.10gb")->usableGiB, 9.75);
        QCOMPARE(c.gpu("h100-80gb")->migProfile("7g.80gb")->smCount, 132);
    }

    void vgpuProfilesWhereTheyApply()
    {
        const Catalog& c = test::bundledCatalog();
        for (const char* id : {"a100-40gb", "a100-80gb", "h100-80gb", "h100-pcie-80gb", "l40s-48gb"}) {
            const GpuSpec* g = c.gpu(id);
            QVERIFY2(!g->vgpuProfiles.empty(), id);
            for (const auto& p : g->vgpuProfiles)
                QVERIFY2(p.framebufferGiB * p.maxPerGpu <= g->memoryGB + 0.01, p.name.c_str());
        }
        QCOMPARE(c.gpu("a100-40gb")->vgpuProfile("A100-10C")->maxPerGpu, 4);
    }

    void templatesAndPrices()
    {
        const Catalog& c = test::bundledCatalog();
        const NodeTemplate* dgx = c.nodeTemplate("dgx-h100");
        QVERIFY(dgx);
        QCOMPARE(dgx->gpuCount, 8);
        QCOMPARE(dgx->nicCount, 8);
        QCOMPARE(dgx->nicSpeedGbps, 400.0);
        QVERIFY(dgx->gpudirectRdma);
        QCOMPARE(dgx->scaleUpKind, std::string("nvswitch"));
        QVERIFY(c.nodeTemplate("pcie-l40s-8"));
        for (const auto& t : c.nodeTemplates)
            QVERIFY2(c.gpu(t.gpuId), t.id.c_str());
        bool ndr = false, hdr = false, eth = false;
        for (const auto& s : c.switchTemplates) {
            ndr |= s.fabric == "infiniband" && s.portSpeedGbps == 400;
            hdr |= s.fabric == "infiniband" && s.portSpeedGbps == 200;
            eth |= s.fabric == "ethernet";
        }
        QVERIFY(ndr && hdr && eth);
        QVERIFY(c.pricePresets.size() >= 2);
        for (const auto& p : c.pricePresets) {
            QVERIFY(QDate::fromString(QString::fromStdString(p.asOf), Qt::ISODate).isValid());
            QVERIFY(!p.source.empty());
            QVERIFY(!p.gpuHourUsd.empty());
        }
    }

    /// Model presets against their model cards: the stated size follows from the shape.
    void modelPresetsMatchTheirStatedSize_data()
    {
        QTest::addColumn<QString>("id");
        for (const char* id : {"gpt3-175b", "llama3-8b", "llama3-70b", "llama3-405b", "mixtral-8x7b", "llama2-7b",
                               "llama2-13b", "llama2-70b", "nemotron3-8b", "nemotron4-340b"})
            QTest::newRow(id) << QString(id);
    }
    void modelPresetsMatchTheirStatedSize()
    {
        QFETCH(QString, id);
        const ModelPreset* m = test::bundledCatalog().model(id.toStdString());
        QVERIFY(m);
        QVERIFY(!m->source.empty());
        const double billions = calc::parameterCount(m->arch) / 1e9;
        QVERIFY2(qAbs(billions - m->statedParamsB) / m->statedParamsB < 0.015,
                 qPrintable(QString("%1: computed %2 B, stated %3 B").arg(id).arg(billions).arg(m->statedParamsB)));
    }
    void mixtralActiveParameters()
    {
        // Jiang et al. 2024: 12.9B parameters active per token.
        const double active = calc::activeParameterCount(test::bundledCatalog().model("mixtral-8x7b")->arch) / 1e9;
        QVERIFY2(qAbs(active - 12.9) < 0.2, qPrintable(QString::number(active)));
    }

    void findGpuByIdOrName()
    {
        const Catalog& c = test::bundledCatalog();
        QCOMPARE(c.findGpu("A100-40GB")->id, std::string("a100-40gb"));
        QCOMPARE(c.findGpu("H100-80GB")->id, std::string("h100-80gb"));
        QCOMPARE(c.findGpu("h100 sxm 80gb")->id, std::string("h100-80gb"));
        QVERIFY(!c.findGpu("V100"));
    }

    void userCatalogMergesOverBundled()
    {
        QTemporaryDir tmp;
        const QString user = tmp.filePath("user.json");
        QFile f(user);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"json({"format_version": 1,
            "price_presets": [{"id": "my-contract", "name": "Our contract", "as_of": "2026-01-01",
                               "source": "signed quote", "gpu_hour_usd": {"h100-80gb": 1.85}}],
            "node_templates": [{"id": "dgx-h100", "name": "DGX H100 (our NICs)", "gpu": "h100-80gb",
                "gpu_count": 8, "scale_up_kind": "nvswitch", "scale_up_domain_gpus": 8, "nic_count": 4,
                "nic_speed_gbps": 400, "gpudirect_rdma": false, "pcie_gen": 5,
                "sources": {"gpu_count": "ours", "nic_count": "ours", "nic_speed_gbps": "ours", "pcie_gen": "ours"}}]})json");
        f.close();
        const auto r = io::loadCatalog(test::dataDir(), user);
        QVERIFY2(r.ok(), qPrintable(dump(r.issues)));
        QCOMPARE(r->pricePreset("my-contract")->gpuHourUsd.at("h100-80gb"), 1.85);
        QCOMPARE(r->nodeTemplate("dgx-h100")->nicCount, 4); // replaced
        QCOMPARE(r->nodeTemplates.size(), test::bundledCatalog().nodeTemplates.size());
    }

    void userCatalogCannotGiveAnIdTwice()
    {
        // A user catalog may replace a bundled entry, but within the file each id is given once:
        // the second of two is refused with its path, not silently kept.
        QTemporaryDir tmp;
        const QString user = tmp.filePath("user.json");
        QFile f(user);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"json({"format_version": 1, "price_presets": [
            {"id": "mine", "name": "A", "as_of": "2026-01-01", "source": "q", "gpu_hour_usd": {"h100-80gb": 1.0}},
            {"id": "mine", "name": "B", "as_of": "2026-01-01", "source": "q", "gpu_hour_usd": {"h100-80gb": 2.0}}]})json");
        f.close();
        const auto r = io::loadCatalog(test::dataDir(), user);
        QVERIFY(!r.ok());
        QVERIFY2(hasIssue(r.issues, "price_presets[1].id: 'mine' is defined twice in this file"),
                 qPrintable(dump(r.issues)));
    }

    void impossibleValuesAreRefusedWithTheirPlace_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("expected");
        QTest::newRow("negative memory")
            << QByteArray(R"({"format_version":1,"gpus":[{"id":"x","name":"X","vendor":"v","architecture":"a",
                "memory_gb":-5,"memory_usable_gib":4,"hbm_bandwidth_gb_per_s":1,"bf16_dense_tflops":1,
                "fp8_dense_tflops":0,"scale_up_kind":"none","scale_up_bandwidth_gb_per_s":0,"pcie_gen":4,
                "tdp_w":1,"sm_count":1}]})")
            << "extra.json: gpus[0].memory_gb: -5 must be between 1 and 10000";
        // Issue 34: scale_up_kind is one of the kinds calc/slots.cpp knows, ids are bounded and a
        // duplicate key is refused.
        QTest::newRow("free-text GPU scale_up_kind")
            << QByteArray(R"({"format_version":1,"gpus":[{"id":"x","name":"X","vendor":"v","architecture":"a",
                "memory_gb":5,"memory_usable_gib":4,"hbm_bandwidth_gb_per_s":1,"bf16_dense_tflops":1,
                "fp8_dense_tflops":0,"scale_up_kind":"nvlink9","scale_up_bandwidth_gb_per_s":0,"pcie_gen":4,
                "tdp_w":1,"sm_count":1}]})")
            << "extra.json: gpus[0].scale_up_kind: 'nvlink9' must be nvlink3, nvlink4, nvlink5, nvlink-bridge, "
               "infinity-fabric or none";
        QTest::newRow("free-text node scale_up_kind")
            << QByteArray(R"({"format_version":1,"node_templates":[{"id":"n","name":"N","gpu":"h100-80gb",
                "gpu_count":8,"scale_up_kind":"NVSwitch","nic_count":8,"nic_speed_gbps":400,"pcie_gen":5,
                "sources":{}}]})")
            << "extra.json: node_templates[0].scale_up_kind: 'NVSwitch' must be nvswitch, nvlink-bridge, "
               "infinity-fabric or pcie";
        QTest::newRow("control character in a name")
            << QByteArray(R"({"format_version":1,"gpus":[{"id":"x","name":"X\u0007","vendor":"v","architecture":"a",
                "memory_gb":5,"memory_usable_gib":4,"hbm_bandwidth_gb_per_s":1,"bf16_dense_tflops":1,
                "fp8_dense_tflops":0,"scale_up_kind":"none","scale_up_bandwidth_gb_per_s":0,"pcie_gen":4,
                "tdp_w":1,"sm_count":1}]})")
            << "extra.json: gpus[0].name: holds the control character U+0007 at character 2";
        QTest::newRow("duplicate key") << QByteArray(R"({"format_version":1,"format_version":1})")
                                       << "extra.json: format_version: duplicate key";
        QTest::newRow("MIG instance bigger than the GPU")
            << QByteArray(R"({"format_version":1,"gpus":[{"id":"x","name":"X","vendor":"v","architecture":"a",
                "memory_gb":10,"memory_usable_gib":9,"hbm_bandwidth_gb_per_s":1,"bf16_dense_tflops":1,
                "fp8_dense_tflops":0,"scale_up_kind":"none","scale_up_bandwidth_gb_per_s":0,"pcie_gen":4,
                "tdp_w":1,"sm_count":10,"mig":{"source":"s","profiles":[{"name":"1g.99gb","id":1,"compute_slices":1,
                "memory_slices":1,"usable_gib":99,"sm_count":1,"max_instances":1,"start_slices":[7]}]}}]})")
            << "gpus[0].mig.profiles[0].usable_gib: 99 must be between 0.1 and 9";
        QTest::newRow("price for unknown GPU")
            << QByteArray(R"({"format_version":1,"price_presets":[{"id":"p","as_of":"2025-01-01","source":"s",
                "gpu_hour_usd":{"v100":2}}]})")
            << "price_presets[0].gpu_hour_usd.v100: is not a GPU in the catalog";
        QTest::newRow("duplicate id")
            << QByteArray(R"({"format_version":1,"switch_templates":[{"id":"qm9700","fabric":"infiniband","ports":64,
                "port_speed_gbps":400,"latency_us":0.1,"sources":{"ports":"s","port_speed_gbps":"s","latency_us":"s"}}]})")
            << "switch_templates[0].id: 'qm9700' is defined twice";
        // Counts are checked as whole numbers in range before they become an int: casting
        // 7.8e79 to int was undefined behaviour (found by the fuzz stage).
        const auto node = [](const char* gpuCount) {
            return QByteArray(R"({"format_version":1,"node_templates":[{"id":"n","name":"N","gpu":"h100-80gb",
                "gpu_count":)") +
                   gpuCount + R"(,"scale_up_kind":"nvswitch","scale_up_domain_gpus":1,"nic_count":1,
                "nic_speed_gbps":400,"pcie_gen":5,"sources":{}}]})";
        };
        QTest::newRow("count 7.8e79") << node("7.77778e+79") << "node_templates[0].gpu_count: 7.77778e+79 is too large";
        QTest::newRow("count -1e308") << node("-1e308") << "node_templates[0].gpu_count: -1e+308 is too large";
        QTest::newRow("count 2^31") << node("2147483648") << "node_templates[0].gpu_count: 2147483648 is too large";
        QTest::newRow("count 1.5") << node("1.5") << "node_templates[0].gpu_count: 1.5 must be a whole number";
        QTest::newRow("count as a string")
            << node(R"("NaN")") << "node_templates[0].gpu_count: expected an integer, found the string \"NaN\"";
        QTest::newRow("count out of range") << node("65") << "node_templates[0].gpu_count: 65 must be between 1 and 64";
        // Kernel efficiency curves: a positive, increasing size axis and shares in (0, 1].
        const auto curve = [](const char* efficiency) {
            return QByteArray(R"({"format_version":1,"gpus":[{"id":"x","name":"X","vendor":"v","architecture":"a",
                "memory_gb":10,"memory_usable_gib":9,"hbm_bandwidth_gb_per_s":1,"bf16_dense_tflops":1,
                "fp8_dense_tflops":0,"scale_up_kind":"none","scale_up_bandwidth_gb_per_s":0,"pcie_gen":4,
                "tdp_w":1,"sm_count":1,"efficiency":)") +
                   efficiency + "}]}";
        };
        QTest::newRow("curve: negative size")
            << curve(R"({"gemm":[[-1,0.5],[10,0.8]]})")
            << "gpus[0].efficiency.gemm[0][0]: -1 GFLOP: a GEMM size must be positive";
        QTest::newRow("curve: zero size")
            << curve(R"({"gemm":[[0,0.5]]})") << "gpus[0].efficiency.gemm[0][0]: 0 GFLOP: a GEMM size must be positive";
        QTest::newRow("curve: sizes not increasing")
            << curve(R"({"gemm":[[1,0.5],[16,0.8],[8,0.85]]})")
            << "gpus[0].efficiency.gemm[2][0]: 8 GFLOP after 16: the sizes must increase";
        QTest::newRow("curve: equal sizes")
            << curve(R"({"gemm":[[1,0.5],[1,0.6]]})")
            << "gpus[0].efficiency.gemm[1][0]: 1 GFLOP after 1: the sizes must increase";
        QTest::newRow("curve: efficiency above 1")
            << curve(R"({"gemm":[[1,1.5]]})") << "gpus[0].efficiency.gemm[0][1]: 1.5 must be between 1e-06 and 1";
        QTest::newRow("curve: not a pair")
            << curve(R"({"gemm":[[1]]})")
            << "gpus[0].efficiency.gemm[0]: must be a pair [GFLOP per GEMM, share of the peak]";
        QTest::newRow("curve: empty") << curve(R"({"gemm":[]})")
                                      << "gpus[0].efficiency.gemm: must list at least one [GFLOP, efficiency] point";
        QTest::newRow("curve: zero memory efficiency")
            << curve(R"({"memory_bound":0})") << "gpus[0].efficiency.memory_bound: 0 must be between 1e-06 and 1";
        QTest::newRow("curve: unknown key") << curve(R"({"gemm_curve":[[1,0.5]]})") << "gpus[0].efficiency.gemm_curve";
        const auto sharing = [](const char* calibration) {
            return QByteArray(R"({"format_version":1,"gpus":[{"id":"x","name":"X","vendor":"v","architecture":"a",
                "memory_gb":10,"memory_usable_gib":9,"hbm_bandwidth_gb_per_s":1,"bf16_dense_tflops":1,
                "fp8_dense_tflops":0,"scale_up_kind":"none","scale_up_bandwidth_gb_per_s":0,"pcie_gen":4,
                "tdp_w":1,"sm_count":1,"sharing":)") +
                   calibration + "}]}";
        };
        QTest::newRow("sharing: switch loss above its range")
            << sharing(R"({"time_slice_switch_us":-5})")
            << "gpus[0].sharing.time_slice_switch_us: -5 must be between 0 and 100000 (µs)";
        QTest::newRow("sharing: negative contention")
            << sharing(R"({"mps_memory_contention":-1})")
            << "gpus[0].sharing.mps_memory_contention: -1 must be between 0 and 5";
        QTest::newRow("sharing: unknown key")
            << sharing(R"({"mps_interference_pct":10})") << "gpus[0].sharing.mps_interference_pct";
        QTest::newRow("vgpu: unknown scheduler")
            << sharing(
                   R"({},"vgpu":{"source":"s","profiles":[{"name":"X-4C","framebuffer_gib":4,"max_per_gpu":2,"schedulers":["round_robin"]}]})")
            << "gpus[0].vgpu.profiles[0].schedulers[0]: 'round_robin' is not a vGPU scheduler";
        QTest::newRow("newer format") << QByteArray(R"({"format_version":7})") << "needs a newer gpuplan";
        QTest::newRow("syntax") << QByteArray("{\"format_version\": 1,\n \"gpus\": [}") << "invalid JSON at line 2";
    }
    /// A user catalog's efficiency figures replace the defaults; absent ones keep them.
    void userEfficiencyCurvesReachTheGpu()
    {
        QTemporaryDir tmp;
        const QByteArray json = R"({"format_version":1,"gpus":[{"id":"x","name":"X","vendor":"v","architecture":"a",
            "memory_gb":10,"memory_usable_gib":9,"hbm_bandwidth_gb_per_s":1,"bf16_dense_tflops":1,
            "fp8_dense_tflops":0,"scale_up_kind":"none","scale_up_bandwidth_gb_per_s":0,"pcie_gen":4,
            "tdp_w":1,"sm_count":1,"efficiency":{"gemm":[[2,0.4],[20,0.6]],"flash_attention":0.3},
            "sources":{"efficiency":"measured on our cluster"}}]})";
        const auto r = io::loadCatalog(dataDirWith(tmp, "extra.json", json));
        QVERIFY2(r.ok(), qPrintable(dump(r.issues)));
        const GpuSpec* g = r->gpu("x");
        QVERIFY(g);
        QCOMPARE(g->efficiency.gemm.size(), std::size_t(2));
        QCOMPARE(g->efficiency.gemmAt(20), 0.6);
        QCOMPARE(g->efficiency.flashAttention, 0.3);
        QCOMPARE(g->efficiency.memoryBound, KernelEfficiency{}.memoryBound);
    }

    /// A user catalog's sharing calibration reaches the interference model of that GPU only.
    void userSharingCalibrationReachesTheGpu()
    {
        QTemporaryDir tmp;
        const QByteArray json = R"({"format_version":1,"gpus":[{"id":"x","name":"X","vendor":"v","architecture":"a",
            "memory_gb":10,"memory_usable_gib":9,"hbm_bandwidth_gb_per_s":1,"bf16_dense_tflops":1,
            "fp8_dense_tflops":0,"scale_up_kind":"none","scale_up_bandwidth_gb_per_s":0,"pcie_gen":4,
            "tdp_w":1,"sm_count":1,"sharing":{"time_slice_cache_refill_us":500},
            "sources":{"sharing":"STREAM in time-sliced VMs on our cluster"}}]})";
        const auto r = io::loadCatalog(dataDirWith(tmp, "extra.json", json));
        QVERIFY2(r.ok(), qPrintable(dump(r.issues)));
        const calc::InterferenceParams mine = calc::InterferenceParams::from({}, *r->gpu("x"));
        const calc::InterferenceParams bundled = calc::InterferenceParams::from({}, *r->gpu("a100-80gb"));
        QCOMPARE(mine.switchMemory, (100.0 + 500.0) / 2000.0); // (switch + refill) / the 2 ms turn
        QCOMPARE(mine.switchCompute, bundled.switchCompute);
        QCOMPARE(bundled.switchMemory, 0.184);
        // The scenario's assumption counts where the GPU sets nothing.
        QCOMPARE(
            calc::InterferenceParams::from({{"time_slice_cache_refill_us", 100.0}}, *r->gpu("a100-80gb")).switchMemory,
            0.10);
        // A longer turn loses less to each switch.
        QCOMPARE(calc::InterferenceParams::from({{"time_slice_ms", 4.0}}, *r->gpu("a100-80gb")).switchCompute, 0.025);
    }

    /// A vGPU profile that lists its schedulers refuses the others, with the place and why.
    void vgpuSchedulerTheProfileDoesNotRunIsRefused()
    {
        QTemporaryDir tmp;
        const QByteArray json = R"({"format_version":1,"gpus":[{"id":"x","name":"X","vendor":"v","architecture":"a",
            "memory_gb":10,"memory_usable_gib":9,"hbm_bandwidth_gb_per_s":1,"bf16_dense_tflops":1,
            "fp8_dense_tflops":0,"scale_up_kind":"none","scale_up_bandwidth_gb_per_s":0,"pcie_gen":4,
            "tdp_w":1,"sm_count":1,"vgpu":{"source":"s","profiles":[{"name":"X-4C","framebuffer_gib":4,
            "max_per_gpu":2,"schedulers":["best_effort","equal_share"]}]}}]})";
        const auto r = io::loadCatalog(dataDirWith(tmp, "extra.json", json));
        QVERIFY2(r.ok(), qPrintable(dump(r.issues)));
        SharingConfig c;
        c.mode = SharingMode::Vgpu;
        c.vgpuProfile = "X-4C";
        c.vgpuScheduler = VgpuScheduler::EqualShare;
        QVERIFY(validateSharing(c, *r->gpu("x"), "topology.nodes[0].sharing").empty());
        c.vgpuScheduler = VgpuScheduler::FixedShare;
        const Issues bad = validateSharing(c, *r->gpu("x"), "topology.nodes[0].sharing");
        QCOMPARE(bad.size(), std::size_t(1));
        QCOMPARE(QString::fromStdString(bad.front().toString()),
                 QString("topology.nodes[0].sharing.vgpu.scheduler: 'fixed_share': X-4C runs only under best_effort, "
                         "equal_share"));
    }

    void impossibleValuesAreRefusedWithTheirPlace()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, expected);
        QTemporaryDir tmp;
        const auto r = io::loadCatalog(dataDirWith(tmp, "extra.json", json));
        QVERIFY(!r.ok());
        QVERIFY2(hasIssue(r.issues, expected), qPrintable(dump(r.issues)));
    }
};

QTEST_GUILESS_MAIN(TestCatalog)
#include "tst_catalog.moc"
