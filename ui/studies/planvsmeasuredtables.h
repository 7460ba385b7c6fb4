// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

// The Plan vs Measured view's tables (planvsmeasureddialog.h): one row per compared quantity, the
// subject's id in the first cell's Qt::UserRole and the row's whole story (every figure, the note,
// the explaining parameter) in kDetailsRole.
#include "study/measurementsvsplan.h"
#include "study/planvsmeasured.h"

#include <QColor>
#include <QString>
#include <QStringList>

class QTableWidget;

namespace gp::ui::pvm {

inline constexpr int kDetailsRole = Qt::UserRole + 1;
/// A flagged row's background: a light red that keeps black text readable.
inline const QColor kFlaggedColour{0xfd, 0xe2, 0xe1};

/// A table with the view's columns, its last one stretching.
QTableWidget* makeTable(const QString& objectName, const QStringList& headers, QWidget* parent);
void fillJobs(QTableWidget* table, const study::PlanVsMeasured& r);
void fillGpus(QTableWidget* table, const study::PlanVsMeasured& r);
/// Everything that could not be matched, as lines for a reader.
QString unmatchedText(const study::PlanVsMeasured& r);
void fillMeasurements(QTableWidget* table, const study::MeasurementsVsPlan& r);

} // namespace gp::ui::pvm
