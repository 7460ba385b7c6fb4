// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "study/sweep.h"

#include "document/latestonly.h"
#include "sim/replaysummary.h"

#include <QDialog>

#include <optional>

class QPushButton;
class QTabWidget;
class QTableWidget;

namespace gp::ui {

/// Results > Open Sweep…: a sweep's output folder (docs/sweeps.md) as charts — one tab per axis,
/// the means along it (sweepAxisChart) — and a table of its points. Of a what-if sweep, "Open
/// Point as Scenario" rebuilds the selected point from the folder's spec and base scenario
/// (sweepPointScenario) and asks the window to open it (pointOpened); of a replay sweep, "Replay
/// Point" replays the selected point again from the spec's traces, in the background, and shows its
/// allocation and fragmentation curves in a tab of their own.
class SweepDialog : public QDialog
{
    Q_OBJECT

public:
    /// The folder's results, or null with the reason in `error` (not a sweep's output, a damaged
    /// file).
    static SweepDialog* open(const QString& folder, const Catalog& catalog, QString& error, QWidget* parent = nullptr);
    ~SweepDialog() override;

    QTabWidget* tabs() const { return mTabs; }
    /// The button that opens or replays the selected point.
    QPushButton* pointButton() const { return mOpen; }
    QTableWidget* table() const { return mTable; }
    const study::SweepTable& results() const { return mResults; }

Q_SIGNALS:
    void pointOpened(const gp::Scenario& scenario);

private:
    SweepDialog(const QString& folder, const Catalog& catalog, study::SweepTable results, study::SweepSpec spec,
                std::optional<Scenario> base, QWidget* parent);
    void fillTable();
    void openSelected();
    void replaySelected();
    void showReplay(const sim::ReplaySummary& summary);
    void replayFinished(const Result<sim::ReplaySummary>& result);

    const Catalog& mCatalog;
    study::SweepTable mResults;
    study::SweepSpec mSpec;
    std::optional<Scenario> mBase;
    long long mReplayPoint = -1;
    /// The selected point's replay; the dialog waits for it when it closes.
    document::LatestOnly<Result<sim::ReplaySummary>> mReplay{[this](std::optional<Result<sim::ReplaySummary>> r) {
        if (r) // never superseded: one replay at a time
            replayFinished(*r);
    }};
    QTabWidget* mTabs = nullptr;
    QTableWidget* mTable = nullptr;
    QPushButton* mOpen = nullptr;
};

} // namespace gp::ui
