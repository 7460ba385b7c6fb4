// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "model/issue.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <utility>
#include <vector>

namespace gp::io {

/// The one way gpuplan writes a file (docs/reliability.md §1): every command, dialog and
/// exporter stages its files here and commits them together.
///
/// - A regular file (or a missing one) is written to a temporary file beside it with unbuffered
///   writes, synced, its size checked against what was meant, and only then renamed over the
///   target: the target is the whole new file or untouched. Qt's QSaveFile is not used because
///   Qt 6.4 does not report a full disk from the flush in its commit(). The temporary file gets
///   the old file's permissions before any byte is written. A file nobody may write (no write
///   bit, e.g. 0444) is refused, even for root.
/// - A character device or a FIFO is written into directly (never replaced); `-` is standard
///   output where the writer is made to allow it. A FIFO nobody reads is refused instead of
///   waiting for a reader.
/// - Any other existing target (a folder, a block device, a socket, a link to nothing) is
///   refused before anything is written.
/// - A writer made with `createFolders` (a folder export) creates missing folders and removes
///   them again if the batch is not committed, so a failed export leaves no partial folder
///   behind; otherwise a missing folder is an error, as for any program writing one file.
///
/// Every failure names the path and the reason ("no space left on device").
class FileWriter
{
public:
    explicit FileWriter(bool createFolders = false, bool dashIsStandardOutput = false)
        : mCreateFolders(createFolders), mDashIsStandardOutput(dashIsStandardOutput)
    {
    }
    FileWriter(const FileWriter&) = delete;
    FileWriter& operator=(const FileWriter&) = delete;
    /// Removes whatever was staged and not committed.
    ~FileWriter();

    /// Writes `bytes` for `path` where nobody sees them yet (see above). After a failure the
    /// batch should be dropped: nothing it staged will be committed.
    Status stage(const QString& path, const QByteArray& bytes);
    /// Puts every staged file in place, in the order staged, after checking every target again.
    /// Only a rename failing (which needs no space) or a kill in between can leave some of a
    /// batch new and the rest old.
    Status commit();

private:
    struct Staged
    {
        QString target;
        QString temp;     ///< empty for a stream target
        QByteArray bytes; ///< kept only for a stream target, written at commit
    };
    void rollback();
    Status makeFolder(const QString& dir);

    std::vector<Staged> mStaged;
    std::vector<QString> mCreatedFolders; ///< in the order created
    bool mCreateFolders = false;
    bool mDashIsStandardOutput = false;
};

/// One file through FileWriter: stage and commit. With `dashIsStandardOutput`, `-` means standard
/// output (`report -o -`); otherwise it is a file of that name.
Status writeFileAtomically(const QString& path, const QByteArray& bytes, bool dashIsStandardOutput = false);

/// Writes `files` (relative paths and contents) under `dir`, created if missing, all or none:
/// every file is staged before any is put in place. Refuses a path that would leave `dir`.
Status writeFiles(const QString& dir, const std::vector<std::pair<QString, QByteArray>>& files);

/// Refuses an output that is one of the inputs (the same file by device and inode, or the same
/// path), with "PATH: is also an input; write the output somewhere else".
Status checkOutputIsNotInput(const QString& output, const QStringList& inputs);

} // namespace gp::io
