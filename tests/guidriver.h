// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

// Driving the workbench's dialogs and menus as a user does, for the GUI tests.
#include <QAbstractSpinBox>
#include <QApplication>
#include <QContextMenuEvent>
#include <QDialog>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QMouseEvent>
#include <QPushButton>
#include <QTest>
#include <QTimer>

#include <functional>
#include <memory>

namespace gp::test {

/// The child widget of `parent` named `name`; the test stops when there is none.
template <typename T> T* child(QWidget* parent, const QString& name)
{
    T* w = parent->findChild<T*>(name);
    if (!w)
        qFatal("no %s", qPrintable(name));
    return w;
}

/// Presses an inspector's Apply Properties button with the mouse, as a user does.
inline void clickApply(QWidget* panel)
{
    auto* apply = panel->findChild<QPushButton*>("applyProperties");
    QVERIFY(apply);
    QTest::mouseClick(apply, Qt::LeftButton);
}

/// Replaces the text of an inspector field (a line edit or a spin box) by typing over it.
inline void typeIntoField(QWidget* field, const QString& text)
{
    QVERIFY(field);
    field->setFocus();
    if (auto* line = qobject_cast<QLineEdit*>(field))
        line->selectAll();
    else if (auto* spin = qobject_cast<QAbstractSpinBox*>(field))
        spin->selectAll();
    QTest::keyClicks(field, text);
}

/// Replaces the text of `edit` by typing, as a user does: select all, then type (or delete).
inline void typeInto(QLineEdit* edit, const QString& text)
{
    edit->setFocus();
    QTest::keyClick(edit, Qt::Key_A, Qt::ControlModifier);
    if (text.isEmpty())
        QTest::keyClick(edit, Qt::Key_Delete);
    else
        QTest::keyClicks(edit, text);
}

/// How often a 20 ms timer fires on the GUI thread while the test waits `ms`: a GUI that does
/// its slow work off the thread keeps it turning (about ms / 20 ticks).
inline int guiThreadTicks(int ms)
{
    int ticks = 0;
    QTimer tick;
    QObject::connect(&tick, &QTimer::timeout, [&ticks] { ++ticks; });
    tick.start(20);
    QTest::qWait(ms);
    return ticks;
}

/// Runs `act` on the next modal dialog once it is shown (whose object name is `name`, or any
/// when empty), polling for it: a mouse click processes events before the dialog opens, so a
/// single zero timer can fire too early. Gives up after 20 seconds (a loaded sanitizer run can take
/// seconds to open a dialog, and a dialog shown after the poll gave up would wait forever); the
/// flag says whether it ran.
inline std::shared_ptr<bool> onNextModal(const QString& name, std::function<void(QDialog*)> act)
{
    auto done = std::make_shared<bool>(false);
    auto* poll = new QTimer(qApp);
    auto tries = std::make_shared<int>(0);
    poll->setInterval(10);
    QObject::connect(poll, &QTimer::timeout, qApp, [poll, tries, name, act, done] {
        auto* dialog = qobject_cast<QDialog*>(QApplication::activeModalWidget());
        if (dialog && (name.isEmpty() || dialog->objectName() == name)) {
            poll->stop();
            poll->deleteLater();
            *done = true;
            act(dialog);
        } else if (++*tries > 2000) {
            poll->stop();
            poll->deleteLater();
        }
    });
    poll->start();
    return done;
}

/// Types `text` into the next input dialog and presses OK once it is shown.
inline std::shared_ptr<bool> typeIntoNextInput(const QString& text)
{
    return onNextModal({}, [text](QDialog* dialog) {
        auto* line = dialog->findChild<QLineEdit*>();
        line->selectAll();
        QTest::keyClicks(line, text);
        QTest::keyClick(line, Qt::Key_Return);
    });
}

/// Answers the next message box called `name` (any when empty) with `button` once it is shown.
inline std::shared_ptr<bool> answerNext(const QString& name, QMessageBox::StandardButton button)
{
    return onNextModal(name, [button](QDialog* dialog) {
        QTest::mouseClick(static_cast<QMessageBox*>(dialog)->button(button), Qt::LeftButton);
    });
}

/// A right-click as the platform delivers it: the button's press and release, then the
/// context-menu event (QTest's mouse events alone do not make one).
inline void rightClick(QWidget* widget, QPoint at)
{
    QTest::mouseClick(widget, Qt::RightButton, {}, at);
    QContextMenuEvent event(QContextMenuEvent::Mouse, at, widget->mapToGlobal(at));
    QApplication::sendEvent(widget, &event);
}

/// The open popup menu's action whose text (without '&') starts with `text`, clicked with the
/// mouse; false when there is no such menu or enabled action.
inline bool clickMenuItem(const QString& text)
{
    if (!QTest::qWaitFor([] { return qobject_cast<QMenu*>(QApplication::activePopupWidget()) != nullptr; }, 2000))
        return false;
    auto* menu = qobject_cast<QMenu*>(QApplication::activePopupWidget());
    for (QAction* a : menu->actions())
        if (a->text().remove('&').startsWith(text)) {
            if (!a->isEnabled())
                break;
            QTest::mouseClick(menu, Qt::LeftButton, {}, menu->actionGeometry(a).center());
            return true;
        }
    menu->close();
    return false;
}

/// Drags within one widget with the left button, in five steps, as a hand does.
inline void dragWithin(QWidget* widget, QPoint from, QPoint to)
{
    QTest::mousePress(widget, Qt::LeftButton, {}, from);
    for (int step = 1; step <= 5; ++step) {
        const QPoint at = from + (to - from) * step / 5;
        QMouseEvent move(QEvent::MouseMove, at, widget->mapToGlobal(at), Qt::NoButton, Qt::LeftButton, {});
        QApplication::sendEvent(widget, &move);
    }
    QTest::mouseRelease(widget, Qt::LeftButton, {}, to);
}

} // namespace gp::test
