// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "ui/figures/slidedeck.h"

#include <QWidget>

#include <memory>

namespace gp::ui {

/// Full-screen presentation of a deck: Right, Down, Space and Page Down go forward; Left, Up,
/// Backspace and Page Up go back; Home and End jump; Esc leaves.
class PresentationWindow : public QWidget
{
    Q_OBJECT

public:
    PresentationWindow(std::unique_ptr<SlideDeck> deck, QWidget* parent = nullptr);
    /// Shows a deck, full screen or in a window, with the keyboard focus on it.
    static PresentationWindow* open(std::unique_ptr<SlideDeck> deck, QWidget* parent, bool fullScreen);
    ~PresentationWindow() override;
    int current() const { return mCurrent; }
    const SlideDeck& deck() const { return *mDeck; }

protected:
    void paintEvent(QPaintEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;

private:
    void go(int slide);

    std::unique_ptr<SlideDeck> mDeck;
    int mCurrent = 0;
};

} // namespace gp::ui
