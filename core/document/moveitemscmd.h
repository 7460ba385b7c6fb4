// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "model/topology.h"

#include <QUndoCommand>

#include <map>
#include <string>

namespace gp::document {

class Document;

/// Moves nodes and switches on the canvas: one command per drag gesture, with every item the
/// drag moved. Stores ids and positions; redo and undo are one swap.
class MoveItemsCmd : public QUndoCommand
{
public:
    MoveItemsCmd(Document* document, std::map<std::string, Point> positions);
    void redo() override;
    void undo() override { redo(); }

private:
    Document* mDocument;
    std::map<std::string, Point> mOther; ///< what the items get on the next swap
};

} // namespace gp::document
