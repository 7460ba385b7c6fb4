// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include <QObject>
#include <QString>
#include <QTimer>

namespace gp::store {

/// Tells when someone else changed the library (docs/team-library.md, "Live library"): on a
/// team library through PostgreSQL's LISTEN/NOTIFY on a connection of its own — every save,
/// rename, tag and delete notifies `gpuplan_library` with the scenario id when its transaction
/// commits — and on a SQLite file by reading PRAGMA data_version once a second (another
/// connection's commit changes it). A lost server connection is retried every second; once back,
/// `changed(0)` says "re-read everything". Lives in the thread that made it (its event loop
/// delivers the notifications).
class LibraryWatcher : public QObject
{
    Q_OBJECT

public:
    /// `location`: the library's file or server address (ScenarioLibrary::path()); `password`
    /// only when the user typed one.
    explicit LibraryWatcher(QString location, QString password = {}, QObject* parent = nullptr);
    ~LibraryWatcher() override;
    LibraryWatcher(const LibraryWatcher&) = delete;
    LibraryWatcher& operator=(const LibraryWatcher&) = delete;

    /// Whether the watcher's own connection is up (a server) or the file opens (SQLite).
    bool connected() const { return mConnected; }

Q_SIGNALS:
    /// Something in the library changed: scenario `scenarioId`, or 0 for anything (a SQLite
    /// commit, or the server connection came back).
    void changed(qint64 scenarioId);
    /// The watcher's connection to the server went down (true) or came back (false).
    void connectionLost(bool lost);

private:
    void connectNow();
    void poll();

    QString mLocation;
    QString mPassword;
    QString mConnection;
    bool mServer = false;
    bool mConnected = false;
    qint64 mDataVersion = -1;
    QTimer mTimer;
};

/// The channel every write of a team library notifies.
inline constexpr const char* kLibraryChannel = "gpuplan_library";

} // namespace gp::store
