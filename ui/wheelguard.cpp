// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "wheelguard.h"

#include <QAbstractScrollArea>
#include <QAbstractSpinBox>
#include <QChildEvent>
#include <QComboBox>
#include <QCoreApplication>
#include <QScrollBar>
#include <QWheelEvent>

namespace gp::ui {

namespace {
bool isField(const QObject* o) { return qobject_cast<const QComboBox*>(o) || qobject_cast<const QAbstractSpinBox*>(o); }
} // namespace

WheelGuard::WheelGuard(QWidget* root) : QObject(root)
{
    root->installEventFilter(this);
    for (QWidget* w : root->findChildren<QWidget*>())
        if (isField(w))
            guard(w);
        else
            w->installEventFilter(this); // to see fields added under it later
}

void WheelGuard::install(QWidget* root) { new WheelGuard(root); }

void WheelGuard::guard(QWidget* field)
{
    field->setFocusPolicy(Qt::StrongFocus); // a click or Tab gives it the wheel, not a pass over it
    field->installEventFilter(this);
}

bool WheelGuard::eventFilter(QObject* watched, QEvent* event)
{
    // ChildPolished, not ChildAdded: by then the child is a whole combo or spin box (at
    // ChildAdded it is still being constructed, a plain QWidget).
    if (event->type() == QEvent::ChildPolished) {
        if (auto* w = qobject_cast<QWidget*>(static_cast<QChildEvent*>(event)->child())) {
            if (isField(w))
                guard(w);
            else
                w->installEventFilter(this); // installing twice keeps one filter
        }
        return false;
    }
    if (event->type() != QEvent::Wheel || !isField(watched))
        return false;
    auto* field = static_cast<QWidget*>(watched);
    if (field->hasFocus())
        return false;
    // Not for the field: scroll the panel it is in instead.
    for (QWidget* p = field->parentWidget(); p; p = p->parentWidget())
        if (auto* area = qobject_cast<QAbstractScrollArea*>(p)) {
            QCoreApplication::sendEvent(area->verticalScrollBar(), event);
            break;
        }
    return true;
}

} // namespace gp::ui
