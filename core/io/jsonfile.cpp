// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "jsonfile.h"

#include "model/checks.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonParseError>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <set>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace gp::io {

namespace {

std::string mib(qint64 bytes) { return std::to_string(bytes / (1024 * 1024)) + " MiB"; }

} // namespace

std::string overLimitMessage(qint64 maxBytes)
{
    return "the file grew past the limit of " + mib(maxBytes) + " while it was read";
}

std::unique_ptr<QFile> openRegularFile(const QString& path, Issues& out, qint64 maxBytes)
{
    if (!QFileInfo::exists(path)) {
        out.push_back(Issue::error("", "file does not exist"));
        return nullptr;
    }
    // O_NONBLOCK: opening a FIFO without a writer returns at once instead of waiting forever;
    // fstat then refuses it. Regular files ignore the flag.
    const QByteArray native = QFile::encodeName(path);
    const int fd = ::open(native.constData(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        out.push_back(Issue::error("", std::string("cannot read: ") + std::strerror(errno)));
        return nullptr;
    }
    struct stat st
    {
    };
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        ::close(fd);
        out.push_back(Issue::error("", "not a regular file"));
        return nullptr;
    }
    if (st.st_size > maxBytes) {
        ::close(fd);
        out.push_back(Issue::error("", "file is " + mib(st.st_size) + "; the limit is " + mib(maxBytes)));
        return nullptr;
    }
    const int flags = ::fcntl(fd, F_GETFL);
    if (flags >= 0)
        ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
    auto file = std::make_unique<QFile>();
    if (!file->open(fd, QIODevice::ReadOnly, QFileDevice::AutoCloseHandle)) {
        ::close(fd);
        out.push_back(Issue::error("", "cannot read: " + file->errorString().toStdString()));
        return nullptr;
    }
    return file;
}

std::optional<QByteArray> readFileBytes(const QString& path, Issues& out, qint64 maxBytes)
{
    const std::unique_ptr<QFile> f = openRegularFile(path, out, maxBytes);
    if (!f)
        return std::nullopt;
    QByteArray bytes;
    bytes.reserve(static_cast<qsizetype>(std::min(f->size(), maxBytes)));
    std::vector<char> block(1 << 20);
    for (;;) {
        const qint64 n = f->read(block.data(), static_cast<qint64>(block.size()));
        if (n < 0) {
            out.push_back(Issue::error("", "cannot read: " + f->errorString().toStdString()));
            return std::nullopt;
        }
        if (n == 0)
            return bytes;
        if (bytes.size() + n > maxBytes) { // it grew since it was opened
            out.push_back(Issue::error("", overLimitMessage(maxBytes)));
            return std::nullopt;
        }
        bytes.append(block.data(), static_cast<qsizetype>(n));
    }
}

bool addFileToHash(QCryptographicHash& hash, const QString& path, Issues& out, qint64 maxBytes)
{
    const std::unique_ptr<QFile> f = openRegularFile(path, out, maxBytes);
    if (!f)
        return false;
    qint64 total = 0;
    std::vector<char> block(1 << 20);
    for (;;) {
        const qint64 n = f->read(block.data(), static_cast<qint64>(block.size()));
        if (n < 0) {
            out.push_back(Issue::error("", "cannot read: " + f->errorString().toStdString()));
            return false;
        }
        if (n == 0)
            return true;
        total += n;
        if (total > maxBytes) {
            out.push_back(Issue::error("", overLimitMessage(maxBytes)));
            return false;
        }
        hash.addData(QByteArrayView(block.data(), static_cast<qsizetype>(n)));
    }
}

namespace {

/// A JSON string's text from its opening quote at `at` (valid JSON); `end` is set past the
/// closing quote. Escapes are decoded only when there are any (rare in keys).
std::string jsonString(const QByteArray& json, qsizetype at, qsizetype& end)
{
    qsizetype i = at + 1;
    bool escaped = false;
    while (i < json.size() && json[i] != '"') {
        if (json[i] == '\\') {
            escaped = true;
            ++i;
        }
        ++i;
    }
    end = i + 1;
    if (!escaped)
        return std::string(json.constData() + at + 1, static_cast<std::size_t>(i - at - 1));
    const QJsonArray decoded = QJsonDocument::fromJson("[" + json.mid(at, end - at) + "]").array();
    return decoded.at(0).toString().toStdString();
}

struct Frame
{
    bool object = false;
    std::string path;
    std::size_t index = 0; ///< arrays: the element being read
    std::string key;       ///< objects: the member being read
    bool expectKey = true; ///< objects: the next string is a key
    std::set<std::string> keys;
};

} // namespace

Issues duplicateJsonKeys(const QByteArray& json, std::size_t maxIssues)
{
    Issues issues;
    std::vector<Frame> stack;
    auto valuePath = [&]() -> std::string {
        if (stack.empty())
            return {};
        const Frame& top = stack.back();
        return top.object ? checks::field(top.path, top.key) : checks::idx(top.path, top.index);
    };
    for (qsizetype i = 0; i < json.size(); ++i) {
        const char c = json[i];
        switch (c) {
        case '{':
        case '[': {
            Frame f;
            f.object = c == '{';
            f.path = valuePath();
            stack.push_back(std::move(f));
            break;
        }
        case '}':
        case ']':
            if (!stack.empty())
                stack.pop_back();
            break;
        case ',':
            if (!stack.empty()) {
                if (stack.back().object)
                    stack.back().expectKey = true;
                else
                    ++stack.back().index;
            }
            break;
        case '"': {
            qsizetype end = i;
            if (!stack.empty() && stack.back().object && stack.back().expectKey) {
                Frame& top = stack.back();
                top.key = jsonString(json, i, end);
                top.expectKey = false;
                if (!top.keys.insert(top.key).second) {
                    issues.push_back(Issue::error(checks::field(top.path, top.key),
                                                  "duplicate key '" + top.key.substr(0, limits::kMaxNameChars) +
                                                      "': the object already has one (give each key once)"));
                    if (issues.size() >= maxIssues)
                        return issues;
                }
            } else { // a string value: skip it
                qsizetype k = i + 1;
                while (k < json.size() && json[k] != '"')
                    k += json[k] == '\\' ? 2 : 1;
                end = k + 1;
            }
            i = end - 1;
            break;
        }
        default: break;
        }
    }
    return issues;
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
    Issues duplicates = duplicateJsonKeys(bytes);
    if (!duplicates.empty()) {
        out.insert(out.end(), duplicates.begin(), duplicates.end());
        return std::nullopt;
    }
    return doc.object();
}

} // namespace gp::io
