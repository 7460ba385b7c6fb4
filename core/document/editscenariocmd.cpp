// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "editscenariocmd.h"

#include "document.h"

namespace gp::document {

EditScenarioCmd::EditScenarioCmd(Document* document, Scenario changed, const QString& text)
    : mDocument(document), mOther(std::move(changed))
{
    setText(text);
}

void EditScenarioCmd::redo() { mDocument->swapScenario(mOther); }

} // namespace gp::document
