// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "calc/kpiexplain.h"
#include "document/commands.h"

#include <QDialog>

#include <map>
#include <string>
#include <vector>

class QDoubleSpinBox;
class QPushButton;

namespace gp::ui {

/// How one number of the plan came about (a click on its KPI card): the formula with this
/// plan's values, the jobs behind it (shown on the canvas on request), the GPU prices a dollar
/// figure uses, the assumptions the calculation read for it — by label, value and unit, editable
/// with their sources, and only those: *Apply Assumptions* offers no knob that leaves it
/// unchanged — and the model's known error for it.
class ExplainDialog : public QDialog
{
    Q_OBJECT

public:
    /// `assumptions`: the scenario's overrides (the registry's default where it has none).
    ExplainDialog(const calc::KpiExplanation& explanation, const std::map<std::string, double>& assumptions,
                  QWidget* parent = nullptr);

    const calc::KpiExplanation& explanation() const { return mExplanation; }
    /// The changed assumptions as scenario field patches (`assumptions.time_slice_ms=4`).
    std::vector<document::FieldPatch> patches() const;

Q_SIGNALS:
    /// "Show on the canvas": the jobs behind the number.
    void showJobsRequested(const std::vector<std::string>& jobIds);
    /// "Apply": the edited assumptions, as one undoable edit.
    void assumptionsChanged(const std::vector<gp::document::FieldPatch>& patches);

private:
    calc::KpiExplanation mExplanation;
    std::vector<std::pair<std::string, QDoubleSpinBox*>> mFields; ///< assumption key, editor
    std::map<std::string, double> mInitial;
    QPushButton* mApply = nullptr;
};

} // namespace gp::ui
