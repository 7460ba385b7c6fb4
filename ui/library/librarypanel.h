// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "store/scenariolibrary.h"

#include <QWidget>

class QTableWidget;
class QLineEdit;

namespace gp::ui {

/// The library browser dock: every scenario with its KPI columns, sortable and filterable by
/// name or tag. Double-click (or Enter) asks to open a scenario; the buttons and the context
/// menu ask to compare the selected ones (two to four), duplicate one as a variant, rename
/// it, set its tags or delete it — the window carries them out.
class LibraryPanel : public QWidget
{
    Q_OBJECT

public:
    explicit LibraryPanel(QWidget* parent = nullptr);
    /// Re-reads the library, keeping the selection on the same scenarios (whatever the new
    /// order); returns false (and shows nothing) if it cannot be read.
    bool reload(store::ScenarioLibrary& library);
    int rowCount() const;
    /// Library ids of the selected rows, in row order.
    QList<qint64> selectedIds() const;
    /// Selects the rows of these ids (for tests and after an action).
    void select(const QList<qint64>& ids);
    QTableWidget* table() const { return mTable; }

Q_SIGNALS:
    void openRequested(qint64 scenarioId);
    void compareRequested(const QList<qint64>& scenarioIds);
    void duplicateRequested(qint64 scenarioId);
    void renameRequested(qint64 scenarioId);
    void tagsRequested(qint64 scenarioId);
    void deleteRequested(qint64 scenarioId);
    void revisionsRequested(qint64 scenarioId);

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void applyFilter(const QString& text);
    /// Hides the revision and update columns when the panel is too narrow for them.
    void fitColumns();

    QLineEdit* mFilter;
    QTableWidget* mTable;
};

} // namespace gp::ui
