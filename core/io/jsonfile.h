// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "model/issue.h"
#include "model/limits.h"

#include <QByteArray>
#include <QCryptographicHash>
#include <QFile>
#include <QJsonObject>
#include <QString>

#include <memory>
#include <optional>

namespace gp::io {

/// Largest JSON file gpuplan reads (model/limits.h).
inline constexpr qint64 kMaxJsonBytes = limits::kMaxJsonBytes;

/// Opens `path` for reading, refusing (with a message in `out`) a missing or unreadable file,
/// anything but a regular file (a FIFO, /dev/zero, a folder; a symlink counts as its target)
/// and one over `maxBytes`. The checks are made on the opened descriptor, and opening never
/// blocks, so a FIFO or a file swapped in between cannot slip past. Whoever reads on must still
/// stop at `maxBytes` (the file may grow): readFileBytes and fileSha256 do.
std::unique_ptr<QFile> openRegularFile(const QString& path, Issues& out, qint64 maxBytes);

/// The message for a file that is or grew over `maxBytes` while it was read.
std::string overLimitMessage(qint64 maxBytes);

/// Reads a whole file, refusing a missing, unreadable, special or oversize one with a message
/// (openRegularFile); reads at most `maxBytes`, so a file that grows is refused too.
std::optional<QByteArray> readFileBytes(const QString& path, Issues& out, qint64 maxBytes = kMaxJsonBytes);

/// Adds a file's bytes to `hash`, read in blocks with the same checks and bound; false (with a
/// message) when it could not (the hash then holds part of the file: do not use it).
bool addFileToHash(QCryptographicHash& hash, const QString& path, Issues& out, qint64 maxBytes);

/// Parses JSON whose top level must be an object; syntax errors say line and column, and a key
/// given twice in one object is refused with its JSON path (QJsonDocument would silently keep
/// one of the values).
std::optional<QJsonObject> parseJsonObject(const QByteArray& bytes, Issues& out);

/// Every key given twice in one object of `json` (already valid JSON), as an error at the
/// second key's path ("tenants[2].jobs[0].name"); at most `maxIssues` of them.
Issues duplicateJsonKeys(const QByteArray& json, std::size_t maxIssues = 20);

} // namespace gp::io
