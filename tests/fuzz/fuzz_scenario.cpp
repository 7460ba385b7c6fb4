// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// libFuzzer target: the scenario JSON reader (format, validation against the catalog).
// A scenario it accepts must write back out and read again to the same scenario.
#include "fuzzsupport.h"
#include "io/scenarioreader.h"
#include "io/scenariowriter.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const QByteArray bytes = QByteArray::fromRawData(reinterpret_cast<const char*>(data), static_cast<qsizetype>(size));
    const gp::Catalog& catalog = gp::fuzz::bundledCatalog();
    const auto r = gp::io::readScenario(bytes, catalog);
    GPUPLAN_FUZZ_CHECK(r.ok() == r.value.has_value());
    if (!r.ok())
        GPUPLAN_FUZZ_CHECK(!r.issues.empty());
    if (r.ok()) {
        const auto again = gp::io::readScenario(gp::io::writeScenario(*r.value), catalog);
        GPUPLAN_FUZZ_CHECK(again.ok());
        GPUPLAN_FUZZ_CHECK(*again.value == *r.value);
    }
    return 0;
}
