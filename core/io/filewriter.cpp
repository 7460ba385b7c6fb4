// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "filewriter.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRandomGenerator>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace gp::io {

namespace {

/// strerror's text as gpuplan words a reason: "no space left on device".
std::string reason(int error)
{
    std::string text = std::strerror(error);
    if (!text.empty())
        text[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(text[0])));
    return text;
}

Failure cannotWrite(const QString& path, const std::string& why)
{
    return failure(path.toStdString(), "cannot write: " + why);
}

std::string kindOf(mode_t mode)
{
    if (S_ISDIR(mode))
        return "a folder";
    if (S_ISBLK(mode))
        return "a block device";
    if (S_ISSOCK(mode))
        return "a socket";
    return "not a regular file";
}

/// Writes all of `bytes` to `fd`, retrying short writes and interrupted calls; 0 or errno.
int writeAll(int fd, const QByteArray& bytes)
{
    const char* data = bytes.constData();
    qint64 left = bytes.size();
    while (left > 0) {
        const ssize_t n = ::write(fd, data, static_cast<size_t>(left));
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return errno;
        }
        if (n == 0)
            return EIO;
        data += n;
        left -= n;
    }
    return 0;
}

/// A character device, a FIFO or standard output: written into, never replaced.
Status writeStream(const QString& path, const QByteArray& bytes)
{
    if (path == "-") {
        if (const int e = writeAll(STDOUT_FILENO, bytes))
            return cannotWrite("standard output", reason(e));
        return done();
    }
    // O_NONBLOCK: a FIFO without a reader fails with ENXIO at once instead of waiting forever.
    const int fd = ::open(QFile::encodeName(path).constData(), O_WRONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) {
        const int e = errno;
        struct stat st = {};
        const bool fifo = ::stat(QFile::encodeName(path).constData(), &st) == 0 && S_ISFIFO(st.st_mode);
        return cannotWrite(path, e == ENXIO && fifo ? "a FIFO that nobody reads" : reason(e));
    }
    const int flags = ::fcntl(fd, F_GETFL);
    if (flags >= 0)
        ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
    const int e = writeAll(fd, bytes);
    const int closed = ::close(fd);
    if (e != 0 || closed != 0)
        return cannotWrite(path, reason(e != 0 ? e : errno));
    return done();
}

/// Where a write to `path` goes: the path itself, or what the symbolic link at it names.
struct Target
{
    QString path;
    bool exists = false;
    struct stat st
    {
    };
};

Result<Target> resolve(const QString& path)
{
    Target t{path};
    struct stat st
    {
    };
    if (::lstat(QFile::encodeName(path).constData(), &st) != 0) {
        const int e = errno;
        if (e != ENOENT)
            return cannotWrite(path, reason(e));
        return Result<Target>::success(t);
    }
    if (S_ISLNK(st.st_mode)) {
        t.path = QFileInfo(path).canonicalFilePath();
        if (t.path.isEmpty())
            return failure(path.toStdString(), "cannot write: a symbolic link to a file that does not exist");
        if (::stat(QFile::encodeName(t.path).constData(), &st) != 0) {
            const int e = errno;
            return cannotWrite(path, reason(e));
        }
    }
    t.exists = true;
    t.st = st;
    return Result<Target>::success(t);
}

bool isStream(const Target& t) { return t.exists && (S_ISCHR(t.st.st_mode) || S_ISFIFO(t.st.st_mode)); }

} // namespace

FileWriter::~FileWriter() { rollback(); }

void FileWriter::rollback()
{
    for (const Staged& s : mStaged)
        if (!s.temp.isEmpty())
            ::unlink(QFile::encodeName(s.temp).constData());
    mStaged.clear();
    for (auto it = mCreatedFolders.rbegin(); it != mCreatedFolders.rend(); ++it)
        ::rmdir(QFile::encodeName(*it).constData()); // only if still empty
    mCreatedFolders.clear();
}

Status FileWriter::makeFolder(const QString& dir)
{
    QStringList missing;
    QString at = QDir::cleanPath(QDir(dir).absolutePath());
    while (!QFileInfo::exists(at)) {
        missing.prepend(at);
        const QString up = QFileInfo(at).path();
        if (up == at)
            break;
        at = up;
    }
    if (!QFileInfo(at).isDir())
        return failure(at.toStdString(), "cannot write: exists and is not a folder");
    for (const QString& d : missing) {
        if (::mkdir(QFile::encodeName(d).constData(), 0777) != 0 && errno != EEXIST) {
            const int e = errno;
            return failure(d.toStdString(), "cannot create the folder: " + reason(e));
        }
        mCreatedFolders.push_back(d);
    }
    return done();
}

Status FileWriter::stage(const QString& path, const QByteArray& bytes)
{
    if (path == "-" && mDashIsStandardOutput) {
        mStaged.push_back({path, {}, bytes});
        return done();
    }
    const Result<Target> target = resolve(path);
    if (!target)
        return Status::failure(target.issues);
    if (isStream(*target)) {
        mStaged.push_back({target->path, {}, bytes});
        return done();
    }
    if (target->exists && !S_ISREG(target->st.st_mode))
        return failure(path.toStdString(),
                       "cannot write: it is " + kindOf(target->st.st_mode) + "; gpuplan never replaces one");
    // Write-protected by its owner: not replaced, even by root (a rename would ignore the mode).
    if (target->exists && (target->st.st_mode & 0222) == 0)
        return cannotWrite(path, "the file is read-only (no write permission for anyone)");
    const QFileInfo info(target->path);
    if (mCreateFolders)
        if (Status folder = makeFolder(info.absolutePath()); !folder)
            return folder;

    // A new name beside the target (a rename is atomic only within one file system); created
    // with O_EXCL and mode 0666 so the umask applies as for any new file.
    QString temp;
    int fd = -1;
    for (int attempt = 0; attempt < 100 && fd < 0; ++attempt) {
        temp = info.absolutePath() + "/." + info.fileName() + ".gpuplan-" +
               QString::number(QRandomGenerator::global()->generate64(), 36);
        fd = ::open(QFile::encodeName(temp).constData(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd < 0 && errno != EEXIST) {
            const int e = errno;
            return cannotWrite(path, reason(e));
        }
    }
    if (fd < 0)
        return cannotWrite(path, "no free temporary name beside it");
    mStaged.push_back({target->path, temp, {}});

    // The permissions of the file it replaces, before a byte of the new contents is in it.
    int e = target->exists && ::fchmod(fd, target->st.st_mode & 07777) != 0 ? errno : 0;
    if (e == 0)
        e = writeAll(fd, bytes);
    if (e == 0 && ::fsync(fd) != 0)
        e = errno;
    struct stat written
    {
    };
    if (e == 0 && ::fstat(fd, &written) != 0)
        e = errno;
    if (::close(fd) != 0 && e == 0)
        e = errno;
    if (e != 0)
        return cannotWrite(path, reason(e));
    if (written.st_size != bytes.size())
        return cannotWrite(path, "wrote " + std::to_string(written.st_size) + " of " + std::to_string(bytes.size()) +
                                     " bytes");
    return done();
}

Status FileWriter::commit()
{
    // Every target checked again before the first rename: one that became a device or a folder
    // since it was staged is never replaced, and then none of the batch is.
    for (const Staged& s : mStaged) {
        struct stat st = {};
        if (!s.temp.isEmpty() && ::lstat(QFile::encodeName(s.target).constData(), &st) == 0 && !S_ISREG(st.st_mode))
            return failure(s.target.toStdString(),
                           "cannot write: it is " + kindOf(st.st_mode) + "; gpuplan never replaces one");
    }
    std::vector<QString> folders;
    for (std::size_t i = 0; i < mStaged.size(); ++i) {
        const Staged& s = mStaged[i];
        if (s.temp.isEmpty()) {
            if (Status w = writeStream(s.target, s.bytes); !w)
                return w;
            continue;
        }
        if (::rename(QFile::encodeName(s.temp).constData(), QFile::encodeName(s.target).constData()) != 0) {
            const int e = errno;
            return cannotWrite(s.target, reason(e));
        }
        mStaged[i].temp.clear();
        folders.push_back(QFileInfo(s.target).absolutePath());
    }
    // The renames themselves reach the disk when their folders are synced (best effort: some
    // file systems refuse fsync on a folder).
    std::sort(folders.begin(), folders.end());
    folders.erase(std::unique(folders.begin(), folders.end()), folders.end());
    for (const QString& f : folders) {
        const int fd = ::open(QFile::encodeName(f).constData(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (fd >= 0) {
            ::fsync(fd);
            ::close(fd);
        }
    }
    mStaged.clear();
    mCreatedFolders.clear();
    return done();
}

Status writeFileAtomically(const QString& path, const QByteArray& bytes, bool dashIsStandardOutput)
{
    FileWriter w(false, dashIsStandardOutput);
    if (Status s = w.stage(path, bytes); !s)
        return s;
    return w.commit();
}

Status writeFiles(const QString& dir, const std::vector<std::pair<QString, QByteArray>>& files)
{
    const QFileInfo info(dir);
    if (info.exists() && !info.isDir())
        return failure(dir.toStdString(), "cannot write: exists and is not a folder");
    const QDir root(dir);
    const QString base = QDir::cleanPath(root.absolutePath()) + '/';
    FileWriter w(true);
    for (const auto& [relative, content] : files) {
        const QString path = QDir::cleanPath(root.absoluteFilePath(relative));
        if (QDir::isAbsolutePath(relative) || !path.startsWith(base))
            return failure(relative.toStdString(), "refused, it is outside " + dir.toStdString());
        if (Status s = w.stage(path, content); !s)
            return s;
    }
    return w.commit();
}

Status checkOutputIsNotInput(const QString& output, const QStringList& inputs)
{
    if (output == "-")
        return done();
    struct stat out
    {
    };
    const bool outExists = ::stat(QFile::encodeName(output).constData(), &out) == 0;
    const QString outPath = QDir::cleanPath(QFileInfo(output).absoluteFilePath());
    for (const QString& input : inputs) {
        if (input.isEmpty())
            continue;
        struct stat in
        {
        };
        const bool same = outExists && ::stat(QFile::encodeName(input).constData(), &in) == 0 && S_ISREG(out.st_mode)
                              ? in.st_dev == out.st_dev && in.st_ino == out.st_ino
                              : QDir::cleanPath(QFileInfo(input).absoluteFilePath()) == outPath;
        if (same)
            return failure(output.toStdString(),
                           "is also an input (" + input.toStdString() + "); write the output somewhere else");
    }
    return done();
}

} // namespace gp::io
