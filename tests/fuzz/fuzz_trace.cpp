// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// libFuzzer target: the Alibaba GPU trace CSV readers (node list and task list).
#include "fuzzsupport.h"
#include "io/tracereader.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const QByteArray bytes = QByteArray::fromRawData(reinterpret_cast<const char*>(data), static_cast<qsizetype>(size));
    const auto nodes = gp::io::parseTraceNodes(bytes, "fuzz.csv");
    GPUPLAN_FUZZ_CHECK(nodes.ok() != gp::hasErrors(nodes.issues));
    const auto tasks = gp::io::parseTraceTasks(bytes, "fuzz.csv");
    GPUPLAN_FUZZ_CHECK(tasks.ok() != gp::hasErrors(tasks.issues));
    if (tasks)
        for (const auto& t : *tasks)
            GPUPLAN_FUZZ_CHECK(t.numGpu >= 0 && t.gpuMilli >= 0 && t.gpuMilli <= 1000);
    return 0;
}
