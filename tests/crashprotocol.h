// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

// What tests/crashchild.cpp writes, so that tst_recovery can check it after the kill.
#include <QByteArray>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace gp::test {

/// Revision N's document in crashchild's `saves` mode: large enough to span several pages.
inline QByteArray revisionDocument(int n)
{
    return QByteArray("{\"revision\": ") + QByteArray::number(n) + ", \"pad\": \"" +
           QByteArray(20000 + (n % 7) * 3000, char('a' + n % 26)) + "\"}";
}

/// The number of nodes in a scenario's JSON (a draft as the library holds it).
inline qsizetype nodeCountOf(const QByteArray& json)
{
    return QJsonDocument::fromJson(json).object()["topology"].toObject()["nodes"].toArray().size();
}

} // namespace gp::test
