// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include <cstddef>
#include <cstdint>

/// Every bound on what gpuplan reads, enumerates or writes, in one place, each with its reason.
/// A reader or a search that meets one refuses with a message naming the limit (never aborts,
/// never runs unbounded); docs/reliability.md lists them for users. Plain C++ (no Qt), so every
/// layer, nvcc included, can use them.
namespace gp::limits {

// ---- File sizes -------------------------------------------------------------------------------

/// Largest JSON file read whole (scenarios, catalogs, sweep specs). What gpuplan writes must read
/// back: the canonical form of a scenario at the node limit (200,000 nodes, ~600 bytes each
/// indented) is ~120 MiB, twice and more the compact file it was imported from (a 47 MB compact
/// import exported as 115 MiB and was refused at the old 64 MiB). Reading 115 MiB took 640 MB of memory.
inline constexpr std::int64_t kMaxJsonBytes = 256ll * 1024 * 1024;

/// Largest trace file (the Alibaba node and task CSVs are a few MiB; 512 MiB is ~10 M rows).
/// Read line by line: memory follows the rows kept, not the file's size.
inline constexpr std::int64_t kMaxTraceBytes = 512ll * 1024 * 1024;

/// Longest line of a trace file (a row is eleven short columns; a longer line is no trace's).
inline constexpr std::int64_t kMaxTraceLineBytes = 64 * 1024;

/// Errors one trace file reports before the reader stops (a wrong file would otherwise report
/// every one of ten million rows).
inline constexpr std::size_t kMaxTraceErrors = 100;

/// Largest sweep results.csv read back (`sweep merge`, the charts): 100,000 points of a few
/// hundred bytes each is ~30 MiB.
inline constexpr std::int64_t kMaxSweepResultsBytes = 256ll * 1024 * 1024;

// ---- Counts -----------------------------------------------------------------------------------

/// Points in one sweep grid (a shard runs a part of them).
inline constexpr long long kMaxSweepPoints = 100000;

/// Seeds in one replay seed range.
inline constexpr std::uint64_t kMaxReplaySeeds = 1000;

/// Nodes in one scenario: the roadmap's 1,000,000-GPU plans are 125,000 eight-GPU nodes.
inline constexpr std::size_t kMaxScenarioNodes = 200'000;

/// Jobs in one scenario, and in one grown by `optimize size --growth` or a sweep's growth axis
/// (a month of +1000 % would otherwise multiply the jobs into gigabytes).
inline constexpr std::size_t kMaxScenarioJobs = 1'000'000;

/// Shards one sweep may be split into (a Slurm job array's usual ceiling is far below).
inline constexpr int kMaxSweepShards = 100'000;

/// A sweep's or `optimize size`'s growth: percent per month, at most (11x a month).
inline constexpr double kMaxGrowthPctPerMonth = 1000.0;

/// Tasks one replay may generate (the Alibaba trace inflated to full allocation is ~2 M).
inline constexpr std::size_t kMaxReplayTasks = 20'000'000;

// ---- Text ------------------------------------------------------------------------------------

/// Characters in an id (nodes, switches, links, groups, tenants, jobs, catalog entries): ids
/// appear in paths, messages, tables and file names; gpuplan's own are under 40.
inline constexpr std::size_t kMaxIdChars = 128;

/// Characters in a name (scenario, node, tenant, job, catalog entry names, trace node and task
/// names): names are drawn on the canvas, in reports and figures; a 10 MB name made `report`
/// run for minutes.
inline constexpr std::size_t kMaxNameChars = 256;

/// Characters in any other string of a JSON input (a description, a source citation, a
/// colour): generous, yet far from what slows a report.
inline constexpr std::size_t kMaxTextChars = 65'536;

// ---- Names ------------------------------------------------------------------------------------

/// Longest author name a library revision records (characters). The OS user name ($USER) is
/// taken only within it and without control characters: Linux user names are at most 32
/// characters (useradd), directory-service names a few dozen; a longer one is not a name.
inline constexpr int kMaxAuthorChars = 128;

// ---- Searches ---------------------------------------------------------------------------------

/// MIG layouts one enumeration keeps (mig-layouts, the inspector's layout list, the plan search's
/// and the alternatives' MIG options). The bundled GPUs have 2,318 at most (239 maximal), but a
/// user catalog may define more profiles: ten 1-slice profiles give ~10^8 layouts, gigabytes of
/// memory; the enumeration stops at this many and says so.
inline constexpr std::size_t kMaxMigLayouts = 10000;

/// Partial layouts one MIG enumeration visits: bounds its time (about a second) where the
/// layouts it keeps are few (--maximal, --profiles) but the ways to reach them are many.
inline constexpr std::size_t kMaxMigSearchSteps = 20'000'000;

// ---- Reports ----------------------------------------------------------------------------------

/// Nodes the report's and the slides' topology draws one by one (the canvas: every GPU, slot and
/// link, ~55 KB of scene per node; 200,000 nodes ran out of memory after minutes). A larger plan
/// is drawn as blocks of racks with counts; the bundled samples (up to 250 nodes) stay as drawn.
inline constexpr std::size_t kReportTopologyMaxNodes = 512;

/// Blocks the summarized topology draws: a page holds about this many legible ones; more racks
/// than this are merged, a few consecutive racks to a block.
inline constexpr std::size_t kReportTopologyMaxBlocks = 240;

/// Jobs the report's jobs table lists (its half page shows about fourteen rows; the rest were
/// cut off unsaid); past this it says how many more there are (the jobs.csv export has them all).
inline constexpr std::size_t kReportMaxJobRows = 12;

} // namespace gp::limits
