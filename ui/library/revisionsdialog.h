// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "store/scenariolibrary.h"

#include <QDialog>

#include <optional>
#include <vector>

class QTableWidget;

namespace gp::ui {

/// A library scenario's revisions — number, time, note, $/month — to open one (Open, or a
/// double-click) or compare the chosen one with the latest.
class RevisionsDialog : public QDialog
{
    Q_OBJECT

public:
    RevisionsDialog(const QString& scenarioName, std::vector<store::RevisionInfo> revisions, QWidget* parent = nullptr);
    /// The revision number chosen in the table; nullopt when none is.
    std::optional<int> chosen() const;

Q_SIGNALS:
    /// "Compare with Latest" on an older revision.
    void compareRequested(int revision, int latest);

private:
    std::vector<store::RevisionInfo> mRevisions;
    QTableWidget* mTable;
};

} // namespace gp::ui
