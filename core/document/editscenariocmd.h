// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "model/scenario.h"

#include <QUndoCommand>

namespace gp::document {

class Document;

/// A change prepared as a whole new scenario (adding a job, a tenant): redo and undo swap the
/// document's scenario with the one the command holds.
class EditScenarioCmd : public QUndoCommand
{
public:
    EditScenarioCmd(Document* document, Scenario changed, const QString& text);
    void redo() override;
    void undo() override { redo(); }

private:
    Document* mDocument;
    Scenario mOther;
};

} // namespace gp::document
