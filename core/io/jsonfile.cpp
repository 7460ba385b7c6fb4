// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "jsonfile.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonParseError>

namespace gp::io {

std::optional<QByteArray> readFileBytes(const QString& path, Issues& out, qint64 maxBytes)
{
    QFileInfo info(path);
    if (!info.exists()) {
        out.push_back(Issue::error("", "file does not exist"));
        return std::nullopt;
    }
    if (!info.isFile()) {
        out.push_back(Issue::error("", "not a regular file"));
        return std::nullopt;
    }
    if (info.size() > maxBytes) {
        out.push_back(Issue::error("", "file is " + std::to_string(info.size() / (1024 * 1024)) +
                                           " MiB; the limit is " + std::to_string(maxBytes / (1024 * 1024)) + " MiB"));
        return std::nullopt;
    }
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        out.push_back(Issue::error("", "cannot read: " + f.errorString().toStdString()));
        return std::nullopt;
    }
    return f.readAll();
}

std::optional<QJsonObject> parseJsonObject(const QByteArray& bytes, Issues& out)
{
    QJsonParseError err{};
    const QJsonDocument doc = QJsonDocument::fromJson(bytes, &err);
    if (err.error != QJsonParseError::NoError) {
        int line = 1;
        int column = 1;
        for (int i = 0; i < err.offset && i < bytes.size(); ++i) {
            if (bytes[i] == '\n') {
                ++line;
                column = 1;
            } else {
                ++column;
            }
        }
        out.push_back(Issue::error("", "invalid JSON at line " + std::to_string(line) + ", column " +
                                           std::to_string(column) + ": " + err.errorString().toStdString()));
        return std::nullopt;
    }
    if (!doc.isObject()) {
        out.push_back(Issue::error("", "the top level must be a JSON object"));
        return std::nullopt;
    }
    return doc.object();
}

} // namespace gp::io
