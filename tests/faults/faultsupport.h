// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// What the fault tests do to a machine, each inside a temporary folder of the test's own: a small
// tmpfs that can be filled up, device nodes and FIFOs. Never the machine's own /dev.
#pragma once

#include "clirunner.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QMap>
#include <QProcess>
#include <QString>
#include <QTemporaryDir>

#include <cerrno>
#include <cstring>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

namespace gp::test {

inline bool isRoot() { return ::geteuid() == 0; }

/// A tmpfs of `bytes` mounted on a temporary folder (root only) and unmounted when it goes.
/// fill() takes every byte that is left, so the next write fails with ENOSPC.
class SmallDisk
{
public:
    explicit SmallDisk(qint64 bytes)
    {
        if (!isRoot()) {
            mWhy = "not root: mounting a tmpfs needs root";
            return;
        }
        const QByteArray options = "size=" + QByteArray::number(bytes);
        if (::mount("tmpfs", QFile::encodeName(mDir.path()).constData(), "tmpfs", MS_NOSUID, options.constData()) !=
            0) {
            mWhy = QString("cannot mount a tmpfs here: %1").arg(std::strerror(errno));
            return;
        }
        mMounted = true;
    }
    ~SmallDisk()
    {
        if (mMounted)
            ::umount2(QFile::encodeName(mDir.path()).constData(), MNT_DETACH);
    }
    SmallDisk(const SmallDisk&) = delete;
    SmallDisk& operator=(const SmallDisk&) = delete;

    bool ok() const { return mMounted; }
    /// Why there is no disk (for QSKIP).
    QString why() const { return mWhy; }
    QString path() const { return mDir.path(); }
    QString filePath(const QString& name) const { return mDir.filePath(name); }

    /// Fills what is left with one file; true once a write failed with ENOSPC.
    bool fill()
    {
        QFile f(filePath(".filler"));
        if (!f.open(QIODevice::WriteOnly | QIODevice::Unbuffered))
            return false;
        const QByteArray chunk(4096, 'x');
        while (f.write(chunk) == chunk.size()) {
        }
        return f.error() != QFileDevice::NoError;
    }
    void unfill() { QFile::remove(filePath(".filler")); }

private:
    QTemporaryDir mDir;
    QString mWhy;
    bool mMounted = false;
};

/// A character device like /dev/null (1, 3) at `path`, made with mknod (root only).
inline bool makeNullDevice(const QString& path)
{
    return ::mknod(QFile::encodeName(path).constData(), S_IFCHR | 0666, makedev(1, 3)) == 0;
}

/// A block device node (loop device 7, 250: it need not exist behind the node) at `path`.
inline bool makeBlockDevice(const QString& path)
{
    return ::mknod(QFile::encodeName(path).constData(), S_IFBLK | 0600, makedev(7, 250)) == 0;
}

inline bool makeFifo(const QString& path) { return ::mkfifo(QFile::encodeName(path).constData(), 0600) == 0; }

/// The file type of `path` without following a link: S_IFREG, S_IFCHR, S_IFIFO, …; 0 if missing.
inline mode_t fileType(const QString& path)
{
    struct stat st
    {
    };
    return ::lstat(QFile::encodeName(path).constData(), &st) == 0 ? (st.st_mode & S_IFMT) : 0;
}

/// Every name in `dir` and below (hidden ones too), sorted: what a failed command must not change.
inline QStringList listing(const QString& dir)
{
    QStringList names;
    const QDir root(dir);
    QDirIterator it(dir, QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot,
                    QDirIterator::Subdirectories);
    while (it.hasNext())
        names << root.relativeFilePath(it.next());
    names.sort();
    return names;
}

/// Writes `bytes` to `path`, making its folder: a test's own setup, not the code under test.
inline bool writeFile(const QString& path, const QByteArray& bytes)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

/// Every file under `dir` with its bytes, the tmpfs filler (".filler") left out: what a failed
/// command must leave byte for byte.
inline QMap<QString, QByteArray> snapshot(const QString& dir)
{
    QMap<QString, QByteArray> files;
    for (const QString& name : listing(dir))
        if (QFileInfo(QDir(dir).filePath(name)).isFile() && name != ".filler")
            files.insert(name, readAll(QDir(dir).filePath(name)));
    return files;
}

/// gpuplan-cli under a virtual-memory ceiling of `limitMiB` (none in sanitizer builds), killed
/// after `timeoutS`: a hang shows as code -2.
inline Run cliLimited(const QStringList& args, const QString& home, int limitMiB = 2048, int timeoutS = 60)
{
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("HOME", home);
    env.insert("XDG_DATA_HOME", home + "/data");
    p.setProcessEnvironment(env);
    QStringList bashArgs{"-c", kSanitized ? QString("exec \"$0\" \"$@\"")
                                          : QString("ulimit -v %1; exec \"$0\" \"$@\"").arg(limitMiB * 1024)};
    bashArgs << qEnvironmentVariable("GPUPLAN_CLI") << args;
    p.start("bash", bashArgs);
    if (!p.waitForFinished(timeoutS * 1000)) {
        p.kill();
        p.waitForFinished();
        return {-2, QString::fromUtf8(p.readAllStandardOutput()), QString::fromUtf8(p.readAllStandardError())};
    }
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, QString::fromUtf8(p.readAllStandardOutput()),
            QString::fromUtf8(p.readAllStandardError())};
}

} // namespace gp::test
