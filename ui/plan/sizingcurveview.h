// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "study/sizing.h"

#include <QTabWidget>

class QChart;
class QTableWidget;

namespace gp::ui {

/// The Size Cluster dialog's capacity curve: the nodes needed month by month as a chart (with
/// the month the plan's own cluster runs out marked) and as a table (jobs, nodes, $/month and
/// whether the plan's own cluster still hosts the load), both views of one SizingResult.
class SizingCurveView : public QTabWidget
{
    Q_OBJECT

public:
    SizingCurveView(const Catalog& catalog, QWidget* parent = nullptr);

    void showResult(const study::SizingResult& r);
    /// Empties both views (a new sizing runs).
    void clear();
    QChart* chart() const { return mChart; }
    QTableWidget* table() const { return mMonths; }

private:
    const Catalog& mCatalog;
    QChart* mChart = nullptr;
    QTableWidget* mMonths = nullptr;
};

} // namespace gp::ui
