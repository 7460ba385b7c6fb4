// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "model/issue.h"

#include <QByteArray>
#include <QJsonObject>
#include <QString>

#include <optional>

namespace gp::io {

/// Largest JSON file gpuplan reads (scenarios, catalogs): far above a 10,000-node cluster.
inline constexpr qint64 kMaxJsonBytes = 64ll * 1024 * 1024;

/// Reads a whole file, refusing a missing, unreadable or oversize one with a message.
std::optional<QByteArray> readFileBytes(const QString& path, Issues& out, qint64 maxBytes = kMaxJsonBytes);

/// Parses JSON whose top level must be an object; syntax errors say line and column.
std::optional<QJsonObject> parseJsonObject(const QByteArray& bytes, Issues& out);

} // namespace gp::io
