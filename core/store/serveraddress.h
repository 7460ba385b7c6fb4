// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "model/issue.h"

#include <QSqlDatabase>
#include <QString>
#include <QStringList>

namespace gp::store {

/// Where a team library lives on a PostgreSQL server, from
/// `postgresql://user@host:port/dbname` (docs/team-library.md). The host may be a Unix-socket
/// folder as libpq takes it (`postgresql://user@/dbname?host=/run/postgresql&port=5433`); `sslmode`
/// (one of libpq's six values) and `connect_timeout` (1 to 600 s) pass through, quoted. A password is never taken from
/// the address: libpq finds it in ~/.pgpass or a service file, or the workbench asks for it and keeps it in memory
/// only. `statement_timeout` (seconds) bounds every statement gpuplan sends, waits for locks included.
struct ServerAddress
{
    QString host; ///< name, address, or a socket folder (starts with '/'); empty: libpq's default
    int port = 5432;
    QString user; ///< empty: libpq's default (the OS user)
    QString database;
    QString sslMode;
    int connectTimeoutS = 10;
    int statementTimeoutS = 60;
    /// "user@host:port/dbname", for messages (never a password).
    QString display() const;
    /// A QPSQL connection to it for `application` (its database, host, port, user and the
    /// connect options: the timeouts, sslmode), added as `connection`, not yet open.
    QSqlDatabase addConnection(const QString& connection, const QString& application, const QString& password) const;
};

/// `value` quoted as libpq's conninfo takes a value: in single quotes, with ' and \ escaped by
/// a backslash (so a value can never add a keyword of its own).
QString conninfoValue(QString value);

/// libpq's sslmode values, the only ones an address may give.
const QStringList& sslModes();

/// `text` (an address, a message) with every password in it replaced by "…": the one of
/// `user:password@`, and the value of any `password=` (or `password%3D`), wherever it stands.
QString maskPasswords(QString text);

/// Whether `text` names a server library (`postgresql://` or `postgres://`) rather than a file.
bool isServerAddress(const QString& text);

/// Parses a server address; refuses one with a password, no database, a bad port, timeout or
/// sslmode, a control character or an unknown parameter, saying which (and never echoing a
/// password: maskPasswords).
Result<ServerAddress> parseServerAddress(const QString& text);

} // namespace gp::store
