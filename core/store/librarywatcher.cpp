// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "librarywatcher.h"

#include "serveraddress.h"
#include "sqlsupport.h"

#include <QSqlDriver>

namespace gp::store {

LibraryWatcher::LibraryWatcher(QString location, QString password, QObject* parent)
    : QObject(parent), mLocation(std::move(location)), mPassword(std::move(password)),
      mConnection(detail::nextConnectionName() + "-watch"), mServer(isServerAddress(mLocation))
{
    connect(&mTimer, &QTimer::timeout, this, &LibraryWatcher::poll);
    mTimer.start(1000);
    connectNow();
}

LibraryWatcher::~LibraryWatcher()
{
    {
        QSqlDatabase db = QSqlDatabase::database(mConnection, false);
        if (db.isOpen())
            db.close();
    }
    QSqlDatabase::removeDatabase(mConnection);
}

void LibraryWatcher::connectNow()
{
    if (QSqlDatabase::contains(mConnection)) {
        {
            QSqlDatabase old = QSqlDatabase::database(mConnection, false);
            old.close();
        }
        QSqlDatabase::removeDatabase(mConnection);
    }
    QSqlDatabase db;
    if (mServer) {
        const Result<ServerAddress> a = parseServerAddress(mLocation);
        if (!a)
            return;
        db = a->addConnection(mConnection, "gpuplan-watch", mPassword);
    } else {
        db = QSqlDatabase::addDatabase("QSQLITE", mConnection);
        db.setDatabaseName(mLocation);
        db.setConnectOptions("QSQLITE_OPEN_READONLY");
    }
    if (!db.open())
        return;
    if (mServer) {
        if (!db.driver()->subscribeToNotification(kLibraryChannel))
            return;
        connect(db.driver(), &QSqlDriver::notification, this,
                [this](const QString& name, QSqlDriver::NotificationSource, const QVariant& payload) {
                    if (name == kLibraryChannel)
                        Q_EMIT changed(payload.toString().section(':', 0, 0).toLongLong());
                });
    }
    mConnected = true;
}

void LibraryWatcher::poll()
{
    if (!mConnected) {
        connectNow();
        if (mConnected) {
            Q_EMIT connectionLost(false);
            Q_EMIT changed(0); // what was missed while away: re-read everything
        }
        return;
    }
    if (mServer) { // a cheap round trip finds a dead connection (notifications alone would not)
        QSqlQuery ping(QSqlDatabase::database(mConnection, false));
        if (!ping.exec("SELECT 1")) {
            mConnected = false;
            Q_EMIT connectionLost(true);
        }
        return;
    }
    QSqlQuery version(QSqlDatabase::database(mConnection, false));
    if (!version.exec("PRAGMA data_version") || !version.next())
        return;
    const qint64 now = version.value(0).toLongLong();
    version.finish();
    if (mDataVersion >= 0 && now != mDataVersion)
        Q_EMIT changed(0);
    mDataVersion = now;
}

} // namespace gp::store
