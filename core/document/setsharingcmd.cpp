// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "setsharingcmd.h"

#include "document.h"
#include "model/enumnames.h"

namespace gp::document {

SetSharingCmd::SetSharingCmd(Document* document, const QStringList& nodeIds, const SharingConfig& sharing)
    : mDocument(document)
{
    for (const QString& id : nodeIds)
        mOther[id.toStdString()] = {sharing, {}};
    setText(QObject::tr("Set %1 sharing on %n node(s)", nullptr, static_cast<int>(mOther.size()))
                .arg(QString::fromStdString(std::string(displayName(sharing.mode)))));
}

void SetSharingCmd::redo()
{
    QStringList changed;
    mDocument->editNodes([&](std::vector<Node>& nodes) {
        for (Node& n : nodes) {
            auto it = mOther.find(n.id);
            if (it == mOther.end())
                continue;
            std::swap(n.sharing, it->second.sharing);
            std::swap(n.gpuSharing, it->second.gpuSharing);
            changed << QString::fromStdString(n.id);
        }
    });
    Q_EMIT mDocument->nodesChanged(changed);
}

} // namespace gp::document
