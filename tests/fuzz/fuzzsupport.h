// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

// Shared by the libFuzzer targets: the bundled catalog, loaded once.
#include "io/catalogreader.h"
#include "io/datapaths.h"

#include <cstdio>
#include <cstdlib>

namespace gp::fuzz {

/// The bundled catalog ($GPUPLAN_DATA_DIR or the source tree's data/); aborts if it does not
/// load, since every input would then be refused for the wrong reason.
inline const Catalog& bundledCatalog()
{
    static const Catalog catalog = [] {
        auto r = io::loadCatalog(io::bundledDataDir());
        if (!r.ok()) {
            std::fprintf(stderr, "fuzz: the bundled catalog does not load\n");
            std::abort();
        }
        return *r;
    }();
    return catalog;
}

/// A reader's verdict must be consistent: a result exactly when no error was reported.
#define GPUPLAN_FUZZ_CHECK(cond)                                                                                       \
    do {                                                                                                               \
        if (!(cond)) {                                                                                                 \
            std::fprintf(stderr, "fuzz: invariant broken: %s (%s:%d)\n", #cond, __FILE__, __LINE__);                   \
            std::abort();                                                                                              \
        }                                                                                                              \
    } while (false)

} // namespace gp::fuzz
