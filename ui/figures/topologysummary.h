// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "calc/evaluation.h"
#include "model/scenario.h"

#include <QRectF>

class QPainter;

namespace gp::ui {

/// Draws a large plan's topology as blocks fitted into `area`: its racks (a node's group, else
/// the leaf switch it hangs off) in scenario order, consecutive ones merged into one block where
/// there are more than limits::kReportTopologyMaxBlocks, each with its nodes, GPUs, a bar of the
/// memory in use and the GPUs at risk of running out of memory. Time and memory grow with the
/// nodes only through one pass over them.
void drawTopologySummary(QPainter& p, const QRectF& area, const Scenario& scenario, const calc::Evaluation& evaluation);

} // namespace gp::ui
