// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "testsupport.h"

#include "io/catalogreader.h"
#include "io/scenarioreader.h"

#include <QDir>
#include <QtGlobal>

#include <cstdio>
#include <cstdlib>

namespace gp::test {

QString dataDir() { return qEnvironmentVariable("GPUPLAN_DATA_DIR"); }
QString fixturesDir() { return qEnvironmentVariable("GPUPLAN_TEST_DATA_DIR"); }
QString sourceDir() { return qEnvironmentVariable("GPUPLAN_SOURCE_DIR"); }

const Catalog& bundledCatalog()
{
    static const Catalog catalog = [] {
        auto r = io::loadCatalog(dataDir());
        if (!r.ok()) {
            for (const auto& i : r.issues)
                std::fprintf(stderr, "%s\n", i.toString().c_str());
            std::fprintf(stderr, "the bundled catalog does not load\n");
            std::abort();
        }
        return *r;
    }();
    return catalog;
}

QStringList sampleFiles()
{
    QDir dir(QDir(dataDir()).absoluteFilePath("samples"));
    QStringList out;
    for (const QString& f : dir.entryList({"*.json"}, QDir::Files, QDir::Name))
        out << dir.absoluteFilePath(f);
    return out;
}

std::optional<Scenario> validationRun(const QString& name)
{
    const QString path = QDir(fixturesDir()).absoluteFilePath("validation/" + name + ".json");
    return io::readScenarioFile(path, bundledCatalog()).value;
}

Scenario templateCluster(const Catalog& catalog, const std::string& templateId, int nodes, const SharingConfig& sharing)
{
    const NodeTemplate* t = catalog.nodeTemplate(templateId);
    if (!t) {
        std::fprintf(stderr, "no node template %s in the catalog\n", templateId.c_str());
        std::abort();
    }
    Scenario s;
    s.name = "test";
    for (int i = 0; i < nodes; ++i) {
        Node n;
        n.id = "n" + std::to_string(i);
        n.name = n.id;
        n.templateId = templateId;
        n.gpuId = t->gpuId;
        n.gpuCount = t->gpuCount;
        n.nics = {t->nicCount, t->nicSpeedGbps, t->gpudirectRdma};
        n.sharing = sharing;
        s.topology.nodes.push_back(n);
    }
    s.pricing.gpuHourUsd[t->gpuId] = 2.0;
    return s;
}

} // namespace gp::test
