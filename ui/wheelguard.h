// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include <QObject>

class QWidget;

namespace gp::ui {

/// Keeps the mouse wheel from changing fields the user only scrolls past: combo boxes and spin
/// boxes under `root` take the wheel only once they have the keyboard focus (a click or Tab);
/// otherwise the wheel scrolls the panel they are in. Fields added later are guarded too.
class WheelGuard : public QObject
{
    Q_OBJECT

public:
    /// Guards every combo and spin box inside `root`, now and when they are added.
    static void install(QWidget* root);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    explicit WheelGuard(QWidget* root);
    void guard(QWidget* field);
};

} // namespace gp::ui
