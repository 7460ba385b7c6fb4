#pragma once

#include "store/scenariolibrary.h"

#include <QWidget>

class QTableWidget;
class QLineEdit;

namespace gp::ui {

/// The library browser dock: every scenario with its KPI columns, sortable and filterable.
/// Double-click (or Enter) asks to open a scenario.
class LibraryPanel : public QWidget
{
    Q_OBJECT

public:
    explicit LibraryPanel(QWidget* parent = nullptr);
    /// Re-reads the library; returns false (and shows nothing) if it cannot be read.
    bool reload(store::ScenarioLibrary& library);
    int rowCount() const;

Q_SIGNALS:
    void openRequested(qint64 scenarioId);

private:
    void applyFilter(const QString& text);

    QLineEdit* mFilter;
    QTableWidget* mTable;
};

} // namespace gp::ui
