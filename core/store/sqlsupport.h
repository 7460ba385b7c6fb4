// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// The scenario library's statements and transactions over Qt SQL, for both of its backends
// (SQLite and PostgreSQL). Internal to core/store.
#pragma once

#include "model/issue.h"
#include "model/limits.h"

#include <QAtomicInt>
#include <QDateTime>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QString>
#include <QVariant>

#include <pwd.h>
#include <unistd.h>

namespace gp::store::detail {

enum class Dialect
{
    Sqlite,
    Postgres
};

/// A Qt SQL connection name of its own for each library object.
inline QString nextConnectionName()
{
    static QAtomicInt counter;
    return QString("gpuplan-library-%1").arg(counter.fetchAndAddRelaxed(1));
}

/// Whether `name` may be recorded as a revision's author: 1 to limits::kMaxAuthorChars
/// characters, none of them a control, format or separator character (a terminal escape or a
/// line break would reach every `library show` and the workbench's history), no blank at
/// either end.
inline bool isValidAuthor(const QString& name)
{
    const QList<uint> chars = name.toUcs4();
    if (chars.isEmpty() || chars.size() > limits::kMaxAuthorChars || name.trimmed() != name)
        return false;
    for (const uint c : chars) {
        const QChar::Category category = QChar::category(char32_t(c));
        if (category == QChar::Other_Control || category == QChar::Other_Format || category == QChar::Other_Surrogate ||
            category == QChar::Other_NotAssigned || category == QChar::Separator_Line ||
            category == QChar::Separator_Paragraph || c == 0xfffd)
            return false;
    }
    return true;
}

/// The OS user, recorded as the author of a SQLite library's revisions: $USER, else $LOGNAME,
/// else the name of the process's user in the password database, whichever first is a valid
/// name (isValidAuthor); "unknown" when none is.
inline QString osUser()
{
    for (const char* variable : {"USER", "LOGNAME"})
        if (QString user = qEnvironmentVariable(variable); isValidAuthor(user))
            return user;
    if (const passwd* pw = ::getpwuid(::geteuid()); pw && pw->pw_name)
        if (QString user = QString::fromLocal8Bit(pw->pw_name); isValidAuthor(user))
            return user;
    return QStringLiteral("unknown");
}

inline QString now() { return QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs); }

inline QDateTime parseTime(const QString& s) { return QDateTime::fromString(s, Qt::ISODateWithMs); }

/// Whether a driver's message means the disk (or the user's quota) has no room left.
inline bool isDiskFull(const QString& driverError)
{
    return driverError.contains("disk is full") || driverError.contains("No space left on device") ||
           driverError.contains("quota exceeded", Qt::CaseInsensitive);
}

/// The driver's message, with what it means for the user where the drivers' words are terse.
inline QString explain(const QString& driverError)
{
    if (isDiskFull(driverError))
        return driverError + " (no space left on device: free some space on the library's disk and try again; "
                             "nothing of this was kept)";
    if (driverError.contains("locked") || driverError.contains("busy"))
        return driverError + " (another program is writing to the library; close it or try again)";
    if (driverError.contains("malformed") || driverError.contains("not a database"))
        return driverError + " (the file is damaged; restore it from a backup)";
    if (driverError.contains("readonly") || driverError.contains("read-only"))
        return driverError + " (the file or its folder cannot be written)";
    if (driverError.contains("permission denied"))
        return driverError + " (this database role may only read the library)";
    if (driverError.contains("statement timeout"))
        return driverError.section('\n', 0, 0).trimmed() +
               " (the server gave up after the library's statement_timeout — default 60 s, set it in the address "
               "with ?statement_timeout=SECONDS; another session may hold a lock; nothing of this was kept)";
    if (driverError.contains("server closed the connection") || driverError.contains("no connection"))
        return driverError + " (the connection to the server was lost; nothing of this save was kept)";
    return driverError;
}

/// One statement with bound values; exec() reports the driver's message on failure.
class Statement
{
public:
    Statement(const QString& connection, const QString& sql) : mQuery(QSqlDatabase::database(connection, false))
    {
        mOk = mQuery.prepare(sql);
    }
    Statement& bind(const QVariant& v)
    {
        mQuery.addBindValue(v);
        return *this;
    }
    bool exec() { return mOk && mQuery.exec(); }
    /// exec() for statements whose rows (if any) are not read: finishes at once, so no
    /// statement is left in progress when the transaction commits.
    bool run()
    {
        const bool ok = exec();
        mQuery.finish();
        return ok;
    }
    QString error() const { return explain(mQuery.lastError().text()); }
    QSqlQuery& query() { return mQuery; }

private:
    QSqlQuery mQuery;
    bool mOk = false;
};

/// Runs a statement without preparing it: schema changes (PostgreSQL does not prepare them)
/// and statements without values. False with the driver's message in `error`.
inline bool execDirect(const QString& connection, const QString& sql, QString& error)
{
    QSqlQuery q(QSqlDatabase::database(connection, false));
    if (q.exec(sql))
        return true;
    error = explain(q.lastError().text());
    return false;
}

/// One write transaction, rolled back unless commit() succeeded. On SQLite, BEGIN IMMEDIATE
/// takes the write lock at once (waiting up to the busy timeout for another writer), so a
/// transaction that reads before it writes cannot fail halfway on a lock; on PostgreSQL the
/// rows a statement changes are locked by it, and the conditional updates decide conflicts.
class Transaction
{
public:
    Transaction(const QString& connection, Dialect dialect) : mConnection(connection)
    {
        mActive = begin(dialect);
        // A server connection the server or the network dropped: opened again once, before
        // anything of this transaction was sent, so nothing is half-done either way.
        if (!mActive && dialect == Dialect::Postgres && reopen(mConnection))
            mActive = begin(dialect);
    }
    /// Opens a dropped server connection again (with the credentials it was opened with).
    static bool reopen(const QString& connection)
    {
        QSqlDatabase db = QSqlDatabase::database(connection, false);
        db.close();
        return db.open();
    }
    ~Transaction()
    {
        if (mActive)
            QSqlQuery(QSqlDatabase::database(mConnection, false)).exec("ROLLBACK");
    }
    Transaction(const Transaction&) = delete;
    Transaction& operator=(const Transaction&) = delete;
    bool active() const { return mActive; }
    bool commit()
    {
        if (!mActive)
            return false;
        QSqlQuery q(QSqlDatabase::database(mConnection, false));
        if (!q.exec("COMMIT")) {
            mError = q.lastError().text();
            return false;
        }
        mActive = false;
        return true;
    }
    QString error() const { return explain(mError); }

private:
    bool begin(Dialect dialect)
    {
        QSqlQuery q(QSqlDatabase::database(mConnection, false));
        if (q.exec(dialect == Dialect::Sqlite ? "BEGIN IMMEDIATE" : "BEGIN"))
            return true;
        mError = q.lastError().text();
        return false;
    }

    QString mConnection;
    bool mActive = false;
    QString mError;
};

/// What could not be done and why, as the issue every call of the library returns.
inline Failure fail(const QString& what, const QString& why)
{
    return Failure{{Issue::error(what.toStdString(), why.toStdString())}};
}

/// A library file that could not be read while it was being recognised: damaged, not a
/// database at all, a full disk, or another reason, each said as such.
inline Failure failRead(const QString& why)
{
    if (why.contains("malformed"))
        return fail("the library is damaged", why);
    if (why.contains("not a database"))
        return fail("not a gpuplan library", why);
    if (isDiskFull(why))
        return fail("no space left on device", why);
    return fail("cannot read the library", why);
}

/// Every line a checking PRAGMA (quick_check, integrity_check) returns; "ok" alone when sound.
inline std::optional<QStringList> pragmaLines(const QString& connection, const QString& sql, QString& error)
{
    Statement s(connection, sql);
    if (!s.exec()) {
        error = s.error();
        return std::nullopt;
    }
    QStringList lines;
    while (s.query().next())
        lines << s.query().value(0).toString();
    s.query().finish();
    return lines;
}

} // namespace gp::store::detail
