// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// The 2026 catalog (issue 37): B300, GB200 and GB300 (in NVL72 racks), MI325X and MI355X with
// their datasheet figures and sources, their node templates, the NVL72 rack templates, and a
// rack template that does not add up refused with its path.
#include "io/catalogreader.h"
#include "testsupport.h"

#include <QTest>

using namespace gp;

namespace {

QString dump(const Issues& issues)
{
    QStringList l;
    for (const auto& i : issues)
        l << QString::fromStdString(i.toString());
    return l.join('\n');
}

} // namespace

class TestRackCatalog : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void theNewGpusCarryTheirDatasheetFigures_data()
    {
        QTest::addColumn<QString>("id");
        QTest::addColumn<double>("memoryGB");
        QTest::addColumn<double>("hbmGBps");
        QTest::addColumn<double>("bf16");
        QTest::addColumn<double>("fp8");
        QTest::addColumn<double>("fp4");
        QTest::addColumn<double>("tdpW");
        QTest::addColumn<QString>("scaleUp");
        QTest::addColumn<double>("scaleUpGBps");
        QTest::newRow("B300") << "b300-288gb" << 288.0 << 8000.0 << 2250.0 << 4500.0 << 13500.0 << 1100.0 << "nvlink5"
                              << 1800.0;
        QTest::newRow("GB200") << "gb200-186gb" << 186.0 << 8000.0 << 2500.0 << 5000.0 << 10000.0 << 1200.0 << "nvlink5"
                               << 1800.0;
        QTest::newRow("GB300") << "gb300-288gb" << 288.0 << 8000.0 << 2500.0 << 5000.0 << 15000.0 << 1400.0 << "nvlink5"
                               << 1800.0;
        QTest::newRow("MI325X") << "mi325x-256gb" << 256.0 << 6000.0 << 1307.4 << 2614.9 << 0.0 << 1000.0
                                << "infinity-fabric" << 896.0;
        QTest::newRow("MI355X") << "mi355x-288gb" << 288.0 << 8000.0 << 2516.6 << 5033.2 << 10066.3 << 1400.0
                                << "infinity-fabric" << 1075.2;
    }
    void theNewGpusCarryTheirDatasheetFigures()
    {
        QFETCH(QString, id);
        const GpuSpec* g = test::bundledCatalog().gpu(id.toStdString());
        QVERIFY2(g, qPrintable(id));
        QTEST(g->memoryGB, "memoryGB");
        QTEST(g->hbmBandwidthGBps, "hbmGBps");
        QTEST(g->bf16DenseTflops, "bf16");
        QTEST(g->fp8DenseTflops, "fp8");
        QTEST(g->fp4DenseTflops, "fp4");
        QTEST(g->tdpW, "tdpW");
        QTEST(QString::fromStdString(g->scaleUpKind), "scaleUp");
        QTEST(g->scaleUpBandwidthGBps, "scaleUpGBps");
        QVERIFY(g->memoryUsableGiB > 0.9 * g->memoryGB && g->memoryUsableGiB <= g->memoryGB);
        for (const char* fig :
             {"memory_gb", "memory_usable_gib", "hbm_bandwidth_gb_per_s", "bf16_dense_tflops", "fp8_dense_tflops",
              "fp4_dense_tflops", "scale_up_bandwidth_gb_per_s", "tdp_w", "sm_count", "efficiency"})
            QVERIFY2(g->sources.count(fig) && !g->sources.at(fig).empty(), qPrintable(id + " " + fig));
        // Dense figures, not the sparse ones datasheets print first: FP8 is twice BF16.
        QVERIFY(qAbs(g->fp8DenseTflops - 2 * g->bf16DenseTflops) < 0.01 * g->fp8DenseTflops);
    }

    void olderGpusHaveNoFp4Figure() { QCOMPARE(test::bundledCatalog().gpu("h100-80gb")->fp4DenseTflops, 0.0); }

    void nodeTemplatesAndRacks()
    {
        const Catalog& c = test::bundledCatalog();
        const struct
        {
            const char* id;
            const char* gpu;
            int gpus;
        } nodes[] = {{"dgx-b300", "b300-288gb", 8},
                     {"gb200-nvl72-tray", "gb200-186gb", 4},
                     {"gb300-nvl72-tray", "gb300-288gb", 4},
                     {"mi325x-8", "mi325x-256gb", 8},
                     {"mi355x-8", "mi355x-288gb", 8}};
        for (const auto& n : nodes) {
            const NodeTemplate* t = c.nodeTemplate(n.id);
            QVERIFY2(t, n.id);
            QCOMPARE(t->gpuId, std::string(n.gpu));
            QCOMPARE(t->gpuCount, n.gpus);
            QCOMPARE(t->scaleUpDomainGpus, n.gpus); // the tray's own; the rack makes it 72
            QVERIFY(t->nicCount > 0 && t->nicSpeedGbps >= 400);
        }
        for (const char* id : {"gb200-nvl72", "gb300-nvl72"}) {
            const RackTemplate* r = c.rackTemplate(id);
            QVERIFY2(r, id);
            QCOMPARE(r->trays, 18);
            QCOMPARE(r->switchTrays, 9);
            QCOMPARE(r->domainGpus, 72);
            QCOMPARE(r->domainGpus, r->trays * c.nodeTemplate(r->trayTemplate)->gpuCount);
            QVERIFY(!r->sources.at("domain_gpus").empty());
        }
    }

    void aRackTemplateThatDoesNotAddUpIsRefused()
    {
        Catalog c = test::bundledCatalog();
        Issues issues;
        io::readCatalogFragment(R"({"format_version": 1, "rack_templates": [
            {"id": "nvl36", "name": "NVL36", "tray_template": "gb200-nvl72-tray", "trays": 9, "switch_trays": 9,
             "domain_gpus": 72, "sources": {"trays": "x", "switch_trays": "x", "domain_gpus": "x"}},
            {"id": "nvl8", "name": "NVL8", "tray_template": "no-such-tray", "trays": 2, "switch_trays": 0,
             "domain_gpus": 8, "sources": {"trays": "x", "switch_trays": "x", "domain_gpus": "x"}}]})",
                                c, true, issues);
        QVERIFY2(c.rackTemplate("nvl36") == nullptr, "a fragment with errors changes nothing");
        bool sum = false, tray = false;
        for (const Issue& i : issues) {
            sum = sum || (i.path == "rack_templates[0].domain_gpus" && i.message.find("9 × 4") != std::string::npos);
            tray = tray || (i.path == "rack_templates[1].tray_template" &&
                            i.message.find("'no-such-tray'") != std::string::npos);
        }
        QVERIFY2(sum && tray, qPrintable(dump(issues)));
    }
};

QTEST_GUILESS_MAIN(TestRackCatalog)
#include "tst_rackcatalog.moc"
