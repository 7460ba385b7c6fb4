// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "actionregistry.h"

#include <QAction>

namespace gp::ui {

QAction* ActionRegistry::add(ActionId id, const QString& text, const QKeySequence& shortcut, bool edits)
{
    Q_ASSERT(!mActions.count(id));
    auto* action = new QAction(text, this);
    action->setShortcut(shortcut);
    mActions[id] = action;
    mEdits[id] = edits;
    return action;
}

QAction* ActionRegistry::action(ActionId id) const
{
    const auto it = mActions.find(id);
    return it == mActions.end() ? nullptr : it->second;
}

void ActionRegistry::setEditingEnabled(bool enabled)
{
    for (const auto& [id, action] : mActions)
        if (mEdits.at(id))
            action->setEnabled(enabled);
}

} // namespace gp::ui
