// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include <QObject>

class QDialog;
class QMenu;
class QMainWindow;

namespace gp::ui {

/// The Help menu: the user guide shown in the window (F1), every keyboard shortcut of the
/// menus in one table, and About.
class HelpController : public QObject
{
    Q_OBJECT

public:
    explicit HelpController(QMainWindow* window);

    void addHelpActions(QMenu* help);
    /// Opens the user guide (non-modal); null, with the reason, when it is not installed.
    QDialog* showUserGuide();
    /// Opens the table of keyboard shortcuts, read from the window's menus (non-modal).
    QDialog* showShortcuts();

private:
    QMainWindow* mWindow;
};

} // namespace gp::ui
