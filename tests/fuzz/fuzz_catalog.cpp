// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// libFuzzer target: the catalog reader, as a user catalog merged over the bundled one.
// A fragment with errors must leave the catalog exactly as it was.
#include "fuzzsupport.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const QByteArray bytes = QByteArray::fromRawData(reinterpret_cast<const char*>(data), static_cast<qsizetype>(size));
    gp::Catalog catalog = gp::fuzz::bundledCatalog();
    gp::Issues issues;
    gp::io::readCatalogFragment(bytes, catalog, true, issues);
    const bool failed = std::any_of(issues.begin(), issues.end(), [](const gp::Issue& i) { return i.isError(); });
    if (failed) {
        const gp::Catalog& before = gp::fuzz::bundledCatalog();
        GPUPLAN_FUZZ_CHECK(catalog.gpus.size() == before.gpus.size());
        GPUPLAN_FUZZ_CHECK(catalog.nodeTemplates.size() == before.nodeTemplates.size());
        GPUPLAN_FUZZ_CHECK(catalog.switchTemplates.size() == before.switchTemplates.size());
        GPUPLAN_FUZZ_CHECK(catalog.pricePresets.size() == before.pricePresets.size());
        GPUPLAN_FUZZ_CHECK(catalog.models.size() == before.models.size());
        for (std::size_t i = 0; i < catalog.gpus.size(); ++i)
            GPUPLAN_FUZZ_CHECK(catalog.gpus[i].id == before.gpus[i].id &&
                               catalog.gpus[i].memoryGB == before.gpus[i].memoryGB);
    }
    return 0;
}
