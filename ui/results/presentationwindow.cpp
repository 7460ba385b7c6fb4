// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "presentationwindow.h"

#include <QKeyEvent>
#include <QPainter>

namespace gp::ui {

PresentationWindow::PresentationWindow(std::unique_ptr<SlideDeck> deck, QWidget* parent)
    : QWidget(parent, Qt::Window), mDeck(std::move(deck))
{
    setAttribute(Qt::WA_DeleteOnClose);
    setWindowTitle(QObject::tr("gpuplan presentation"));
    setFocusPolicy(Qt::StrongFocus);
}

PresentationWindow::~PresentationWindow() = default;

PresentationWindow* PresentationWindow::open(std::unique_ptr<SlideDeck> deck, QWidget* parent, bool fullScreen)
{
    auto* window = new PresentationWindow(std::move(deck), parent);
    if (fullScreen)
        window->showFullScreen();
    else
        window->show();
    window->setFocus();
    return window;
}

void PresentationWindow::go(int slide)
{
    mCurrent = std::clamp(slide, 0, mDeck->count() - 1);
    update();
}

void PresentationWindow::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.fillRect(rect(), Qt::black);
    // The largest 16:9 area in the window, centred.
    QSizeF size(width(), width() * 9.0 / 16.0);
    if (size.height() > height())
        size = QSizeF(height() * 16.0 / 9.0, height());
    const QRectF area(QPointF((width() - size.width()) / 2, (height() - size.height()) / 2), size);
    mDeck->paint(p, area, mCurrent);
    p.setPen(QColor("#999999"));
    p.drawText(area.adjusted(0, 0, -12, -6), Qt::AlignRight | Qt::AlignBottom,
               QString("%1 / %2").arg(mCurrent + 1).arg(mDeck->count()));
}

void PresentationWindow::keyPressEvent(QKeyEvent* event)
{
    switch (event->key()) {
    case Qt::Key_Right:
    case Qt::Key_Down:
    case Qt::Key_Space:
    case Qt::Key_PageDown: go(mCurrent + 1); break;
    case Qt::Key_Left:
    case Qt::Key_Up:
    case Qt::Key_Backspace:
    case Qt::Key_PageUp: go(mCurrent - 1); break;
    case Qt::Key_Home: go(0); break;
    case Qt::Key_End: go(mDeck->count() - 1); break;
    case Qt::Key_Escape: close(); break;
    default: QWidget::keyPressEvent(event);
    }
}

} // namespace gp::ui
