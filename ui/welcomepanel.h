// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include <QFrame>

#include <utility>
#include <vector>

class QCheckBox;

namespace gp::ui {

/// The first thing a new user sees (docs/workbench.md, "First start"), over the middle of the
/// window: open one of the library's scenarios (the bundled samples on a fresh library), start a
/// blank plan, import a scenario file, or open the user guide; "Show at start" (kept in
/// QSettings) and a close button. Help > Welcome brings it back.
class WelcomePanel : public QFrame
{
    Q_OBJECT

public:
    /// `scenarios`: library id and name of the scenarios offered, in order.
    WelcomePanel(const std::vector<std::pair<qint64, QString>>& scenarios, QWidget* window);
    /// Whether the workbench shows it at start (QSettings "welcome/show", on by default).
    static bool showAtStart();

Q_SIGNALS:
    void scenarioChosen(qint64 id);
    void blankChosen();
    void importChosen();
    void guideChosen();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;

private:
    void centre();

    QWidget* mWindow;
    QCheckBox* mShowAtStart;
};

} // namespace gp::ui
