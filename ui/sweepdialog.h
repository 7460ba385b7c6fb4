// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "document/sweep.h"

#include <QDialog>

class QPushButton;
class QTabWidget;
class QTableWidget;

namespace gp::ui {

/// Results > Open Sweep…: a sweep's output folder (docs/sweeps.md) as charts — one tab per axis,
/// the mean $/month, VRAM utilization, largest penalty and SLO attainment along it — and a table of
/// its points; "Open Point as Scenario" rebuilds the selected point from the folder's spec and base
/// scenario (sweepPointScenario) and asks the window to open it (pointOpened).
class SweepDialog : public QDialog
{
    Q_OBJECT

public:
    /// The folder's results, or null with the reason in `error` (not a sweep's output, a damaged
    /// file).
    static SweepDialog* open(const QString& folder, const Catalog& catalog, QString& error, QWidget* parent = nullptr);

    QTabWidget* tabs() const { return mTabs; }
    QTableWidget* table() const { return mTable; }
    const document::SweepTable& results() const { return mResults; }

Q_SIGNALS:
    void pointOpened(const gp::Scenario& scenario);

private:
    SweepDialog(const QString& folder, const Catalog& catalog, document::SweepTable results, document::SweepSpec spec,
                Scenario base, QWidget* parent);
    void openSelected();

    const Catalog& mCatalog;
    document::SweepTable mResults;
    document::SweepSpec mSpec;
    Scenario mBase;
    QTabWidget* mTabs = nullptr;
    QTableWidget* mTable = nullptr;
    QPushButton* mOpen = nullptr;
};

} // namespace gp::ui
