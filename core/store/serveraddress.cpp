// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "serveraddress.h"

#include <QStringList>
#include <QUrl>
#include <QUrlQuery>

#include <algorithm>

namespace gp::store {

QString ServerAddress::display() const
{
    // Masked too: a host, user or database name may carry a "password=…" meant to be smuggled.
    return maskPasswords((user.isEmpty() ? QString() : user + "@") + (host.isEmpty() ? QString("localhost") : host) +
                         ":" + QString::number(port) + "/" + database);
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
    // QPSQL quotes the host, database, user and password itself, and appends these options to
    // libpq's conninfo after them (turning each ';' into a space), where a later keyword wins:
    // so every value is quoted here (conninfoValue) and none may hold a ';' (parseServerAddress
    // refuses one, the application name is ours). The server applies `options` to the session,
    // so a reopened connection keeps the statement timeout.
    QString app = application;
    app.remove(';');
    QStringList options{"connect_timeout=" + conninfoValue(QString::number(connectTimeoutS)),
                        "application_name=" + conninfoValue(app),
                        "options=" + conninfoValue(QString("-c statement_timeout=%1").arg(statementTimeoutS * 1000))};
    if (!sslMode.isEmpty())
        options << "sslmode=" + conninfoValue(sslMode);
    db.setConnectOptions(options.join(';'));
    return db;
}

QString conninfoValue(QString value)
{
    value.replace('\\', "\\\\").replace('\'', "\\'");
    return "'" + value + "'";
}

const QStringList& sslModes()
{
    static const QStringList modes{"disable", "allow", "prefer", "require", "verify-ca", "verify-full"};
    return modes;
}

QString maskPasswords(QString text)
{
    // The password of "scheme://user:password@host".
    if (const int scheme = text.indexOf("://"); scheme >= 0) {
        const int at = text.indexOf('@', scheme + 3);
        const int slash = text.indexOf('/', scheme + 3);
        const int colon = text.indexOf(':', scheme + 3);
        if (at > 0 && colon > 0 && colon < at && (slash < 0 || at < slash))
            text.replace(colon + 1, at - colon - 1, QString::fromUtf8("\u2026"));
    }
    // "password=…" wherever it stands (a parameter, or smuggled into another one's value,
    // encoded or not): up to the next '&', '#', blank or encoded blank.
    for (int from = 0;;) {
        const int key = text.indexOf("password", from, Qt::CaseInsensitive);
        if (key < 0)
            break;
        int start = key + 8;
        if (text.mid(start, 1) == "=")
            start += 1;
        else if (text.mid(start, 3).compare("%3d", Qt::CaseInsensitive) == 0)
            start += 3;
        else {
            from = start;
            continue;
        }
        int end = start;
        while (end < text.size() && text[end] != '&' && text[end] != '#' && !text[end].isSpace() &&
               text.mid(end, 3).compare("%20", Qt::CaseInsensitive) != 0 &&
               text.mid(end, 3).compare("%26", Qt::CaseInsensitive) != 0)
            ++end;
        text.replace(start, end - start, QString::fromUtf8("\u2026"));
        from = start + 1;
    }
    return text;
}

bool isServerAddress(const QString& text) { return text.startsWith("postgresql://") || text.startsWith("postgres://"); }

Result<ServerAddress> parseServerAddress(const QString& text)
{
    using R = Result<ServerAddress>;
    // The address as the messages show it: never a password, wherever one was put.
    const QString shown = maskPasswords(text);
    auto refuse = [&](const QString& why) { return R::failure(shown.toStdString(), why.toStdString()); };
    if (!isServerAddress(text))
        return refuse("a team library is named postgresql://user@host:port/dbname");
    const QUrl url(text, QUrl::StrictMode);
    if (!url.isValid())
        return refuse("not a valid address: " + maskPasswords(url.errorString()));
    if (!url.password().isEmpty())
        return refuse("give no password in the address: put it in ~/.pgpass or a service file, or let the "
                      "workbench ask for it");
    ServerAddress a;
    a.host = url.host();
    a.user = url.userName();
    a.port = url.port(5432);
    if (a.port < 1 || a.port > 65535)
        return refuse("the port must be between 1 and 65535");
    a.database = url.path().mid(1);
    for (const QString& part : {a.host, a.user, a.database})
        if (std::any_of(part.begin(), part.end(), [](QChar c) { return c.category() == QChar::Other_Control; }))
            return refuse("the address holds a control character");
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
        // Nothing of the address may carry a line break or other control character into the
        // connection string or a message.
        if (std::any_of(value.begin(), value.end(), [](QChar c) { return c.category() == QChar::Other_Control; }))
            return refuse("the parameter '" + key + "' holds a control character");
        if (key == "host")
            a.host = value;
        else if (key == "port") {
            if (!inRange(value, 1, 65535, a.port))
                return refuse("the port must be between 1 and 65535");
        } else if (key == "sslmode") {
            if (!sslModes().contains(value))
                return refuse("sslmode '" + maskPasswords(value) + "' is not one of libpq's: " + sslModes().join(", "));
            a.sslMode = value;
        } else if (key == "connect_timeout") {
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
