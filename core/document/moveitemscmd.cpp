// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "moveitemscmd.h"

#include "document.h"

namespace gp::document {

MoveItemsCmd::MoveItemsCmd(Document* document, std::map<std::string, Point> positions)
    : mDocument(document), mOther(std::move(positions))
{
    setText(QObject::tr("Move %n item(s)", nullptr, static_cast<int>(mOther.size())));
}

void MoveItemsCmd::redo()
{
    QStringList moved;
    mDocument->editTopology([&](Topology& t) {
        auto swapIn = [&](auto& items) {
            for (auto& item : items)
                if (auto it = mOther.find(item.id); it != mOther.end()) {
                    std::swap(item.position, it->second);
                    moved << QString::fromStdString(item.id);
                }
        };
        swapIn(t.nodes);
        swapIn(t.switches);
    });
    Q_EMIT mDocument->itemsMoved(moved);
}

} // namespace gp::document
