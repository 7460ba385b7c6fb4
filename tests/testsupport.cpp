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

} // namespace gp::test
