// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "model/sharing.h"

#include <QStringList>
#include <QUndoCommand>

#include <map>
#include <string>

namespace gp::document {

class Document;

/// Sets how every GPU of the given nodes is shared (clearing per-GPU overrides): the bulk edit
/// "set the sharing mode of 64 nodes at once". Stores ids and values, never pointers; redo and
/// undo are one swap.
class SetSharingCmd : public QUndoCommand
{
public:
    SetSharingCmd(Document* document, const QStringList& nodeIds, const SharingConfig& sharing);
    void redo() override;
    void undo() override { redo(); }

private:
    struct NodeSharing
    {
        SharingConfig sharing;
        std::map<int, SharingConfig> gpuSharing;
    };
    Document* mDocument;
    std::map<std::string, NodeSharing> mOther; ///< what the nodes get on the next swap
};

} // namespace gp::document
