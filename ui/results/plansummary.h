// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "calc/evaluation.h"
#include "model/catalog.h"
#include "model/scenario.h"

#include <QLabel>
#include <QStringList>

namespace gp::ui {

/// The heading above the KPI cards: the plan's name and description, its fleet, what the
/// tenants ask for, whether it meets the planning target and how long evaluate() took.
class PlanSummary : public QLabel
{
    Q_OBJECT

public:
    explicit PlanSummary(QWidget* parent = nullptr);
    void showEvaluation(const Scenario& scenario, const Catalog& catalog, const calc::Evaluation& evaluation);
    /// Compact for short windows (1366×768): the name as bold text on the fleet's line and the
    /// description in the tooltip, so the canvas keeps its height.
    void setCompact(bool compact);
    bool compact() const { return mCompact; }

private:
    void render();
    QString mName, mDescription, mFleet, mSla;
    bool mCompact = false;
};

/// What the planner must not miss, one line each, for the canvas's warning box: jobs without
/// a place (at most six named, then a count) and GPUs at risk of running out of memory.
QStringList planWarnings(const Scenario& scenario, const calc::Evaluation& evaluation);

} // namespace gp::ui
