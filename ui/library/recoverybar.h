// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "store/scenariolibrary.h"

#include <QFrame>

class QLabel;
class QPushButton;

namespace gp::ui {

/// The banner above the canvas that offers autosaved work a crashed or killed session left
/// behind: what it is, when it was saved, and Restore / Discard (docs/workbench.md).
class RecoveryBar : public QFrame
{
    Q_OBJECT

public:
    explicit RecoveryBar(QWidget* parent = nullptr);

    /// Shows the first of `drafts` ("1 of N" when there are more); hides when empty.
    void offer(const std::vector<store::Draft>& drafts, const std::map<qint64, QString>& scenarioNames);
    QString offeredSession() const { return mSession; }
    QString text() const;

Q_SIGNALS:
    void restoreRequested(const QString& session);
    void discardRequested(const QString& session);

private:
    QLabel* mText;
    QPushButton* mRestore;
    QPushButton* mDiscard;
    QString mSession;
};

} // namespace gp::ui
