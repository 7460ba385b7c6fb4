// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "serveraddress.h"

#include <QStringList>
#include <QUrl>
#include <QUrlQuery>

namespace gp::store {

QString ServerAddress::display() const
{
    return (user.isEmpty() ? QString() : user + "@") + (host.isEmpty() ? QString("localhost") : host) + ":" +
           QString::number(port) + "/" + database;
}

QSqlDatabase ServerAddress::addConnection(const QString& connection, const QString& application,
                                          const QString& password) const
{
    QSqlDatabase db = QSqlDatabase::addDatabase("QPSQL", connection);
    db.setHostName(host);
    db.setPort(port);
    db.setDatabaseName(database);
    if (!user.isEmpty())
        db.setUserName(user);
    if (!password.isEmpty())
        db.setPassword(password);
    // QPSQL joins the options with spaces into libpq's conninfo; the server applies `options` to
    // the session, so a reopened connection keeps the statement timeout.
    QStringList options{QString("connect_timeout=%1").arg(connectTimeoutS), "application_name=" + application,
                        QString("options='-c statement_timeout=%1'").arg(statementTimeoutS * 1000)};
    if (!sslMode.isEmpty())
        options << "sslmode=" + sslMode;
    db.setConnectOptions(options.join(';'));
    return db;
}

bool isServerAddress(const QString& text) { return text.startsWith("postgresql://") || text.startsWith("postgres://"); }

Result<ServerAddress> parseServerAddress(const QString& text)
{
    using R = Result<ServerAddress>;
    auto refuse = [&](const QString& why) { return R::failure(text.toStdString(), why.toStdString()); };
    if (!isServerAddress(text))
        return refuse("a team library is named postgresql://user@host:port/dbname");
    const QUrl url(text, QUrl::StrictMode);
    if (!url.isValid())
        return refuse("not a valid address: " + url.errorString());
    if (!url.password().isEmpty())
        return R::failure("postgresql://" + url.userName().toStdString() + ":…@" + url.host().toStdString(),
                          "give no password in the address: put it in ~/.pgpass or a service file, or let the "
                          "workbench ask for it");
    ServerAddress a;
    a.host = url.host();
    a.user = url.userName();
    a.port = url.port(5432);
    if (a.port < 1 || a.port > 65535)
        return refuse("the port must be between 1 and 65535");
    a.database = url.path().mid(1);
    if (a.database.isEmpty() || a.database.contains('/'))
        return refuse("name the database: postgresql://user@host:port/dbname");
    // A whole number within [low, high] into `out`, or false.
    auto inRange = [](const QString& value, int low, int high, int& out) {
        bool ok = false;
        out = value.toInt(&ok);
        return ok && out >= low && out <= high;
    };
    const QUrlQuery query(url);
    for (const auto& [key, value] : query.queryItems(QUrl::FullyDecoded)) {
        if (key == "host")
            a.host = value;
        else if (key == "port") {
            if (!inRange(value, 1, 65535, a.port))
                return refuse("the port must be between 1 and 65535");
        } else if (key == "sslmode")
            a.sslMode = value;
        else if (key == "connect_timeout") {
            if (!inRange(value, 1, 600, a.connectTimeoutS))
                return refuse("connect_timeout must be 1 to 600 seconds");
        } else if (key == "statement_timeout") {
            if (!inRange(value, 1, 3600, a.statementTimeoutS))
                return refuse("statement_timeout must be 1 to 3600 seconds");
        } else if (key == "password")
            return refuse("give no password in the address: put it in ~/.pgpass or a service file");
        else
            return refuse("unknown parameter '" + key +
                          "' (host, port, sslmode, connect_timeout and statement_timeout are known)");
    }
    return R::success(std::move(a));
}

} // namespace gp::store
