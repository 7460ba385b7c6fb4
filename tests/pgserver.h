// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

// A throwaway PostgreSQL 15 server for the team-library tests: initdb into a temporary folder,
// a Unix socket in that folder (no TCP), trust authentication for the
// superuser "gpuplan"; stopped (immediate shutdown) and removed when the object goes, whatever
// the outcome (a watchdog stops it if the test process dies first). The server refuses to run as root, so under root it
// runs as the "postgres" user the Debian package creates.
#include <QCoreApplication>
#include <QDir>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>

#include <unistd.h>

namespace gp::test {

class PostgresServer
{
public:
    static QString binDir()
    {
        for (const char* v : {"17", "16", "15"})
            if (QFileInfo::exists(QString("/usr/lib/postgresql/%1/bin/initdb").arg(v)))
                return QString("/usr/lib/postgresql/%1/bin").arg(v);
        return {};
    }

    /// Starts the server; false with the reason in error() (no PostgreSQL installed, initdb or
    /// pg_ctl failed). Bounded: every step has a timeout.
    bool start()
    {
        mBin = binDir();
        if (mBin.isEmpty())
            return failed("PostgreSQL is not installed (the Debian package postgresql-15)");
        if (!mDir.isValid())
            return failed("no temporary folder");
        mRoot = ::geteuid() == 0;
        if (mRoot && !run("chown", {"-R", "postgres:postgres", mDir.path()}, 10))
            return failed("cannot give the temporary folder to the postgres user: " + mLastOutput);
        QFile::setPermissions(mDir.path(), QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner |
                                               QFileDevice::ReadGroup | QFileDevice::ExeGroup | QFileDevice::ReadOther |
                                               QFileDevice::ExeOther);
        // No TCP: the port only names the socket file, and the folder is this server's own, so
        // any number is free; one per process keeps the log lines apart.
        mPort = 40000 + static_cast<int>(::getpid() % 20000);
        if (!pg("initdb", {"-D", data(), "-U", "gpuplan", "--auth=trust", "-E", "UTF8", "--no-sync"}, 120))
            return failed("initdb failed: " + mLastOutput);
        // One role signs in with a password (the password tests); every other role is trusted.
        {
            QFile hba(data() + "/pg_hba.conf");
            if (!hba.open(QIODevice::WriteOnly | QIODevice::Truncate))
                return failed("cannot write pg_hba.conf");
            hba.write("local all pwuser scram-sha-256\nlocal all all trust\n");
        }
        const QString options = QString("-k %1 -p %2 -c listen_addresses='' -c fsync=off -c max_connections=40")
                                    .arg(mDir.path())
                                    .arg(mPort);
        if (!pg("pg_ctl", {"-D", data(), "-o", options, "-l", mDir.filePath("server.log"), "-w", "-t", "60", "start"},
                90))
            return failed("pg_ctl start failed: " + mLastOutput + log());
        mRunning = true;
        // A watchdog that stops the server when this process ends without stopping it (a
        // failed check that aborts, a kill -9): whatever the outcome, no server is left behind.
        const QString stopCommand = (mRoot ? QString("runuser -u postgres -- ") : QString()) + mBin + "/pg_ctl -D '" +
                                    data() + "' -m immediate -w -t 30 stop";
        QProcess::startDetached(
            "sh", {"-c", QString("while kill -0 %1 2>/dev/null; do sleep 1; done; %2 >/dev/null 2>&1; rm -rf '%3'")
                             .arg(QCoreApplication::applicationPid())
                             .arg(stopCommand, mDir.path())});
        return true;
    }

    ~PostgresServer() { stop(); }

    void stop()
    {
        if (mRunning)
            pg("pg_ctl", {"-D", data(), "-m", "immediate", "-w", "-t", "30", "stop"}, 40);
        mRunning = false;
    }

    /// Runs SQL as the superuser in `database` through psql; false with the output in error().
    bool sql(const QString& database, const QString& statement)
    {
        return pg("psql",
                  {"-h", mDir.path(), "-p", QString::number(mPort), "-U", "gpuplan", "-d", database, "-v",
                   "ON_ERROR_STOP=1", "-q", "-c", statement},
                  30) ||
               failed(mLastOutput);
    }

    /// The address of `database` for `user` (superuser by default).
    QString address(const QString& database, const QString& user = "gpuplan") const
    {
        return QString("postgresql://%1@/%2?host=%3&port=%4&connect_timeout=5")
            .arg(user, database, mDir.path())
            .arg(mPort);
    }
    QString socketDir() const { return mDir.path(); }
    int port() const { return mPort; }
    QString error() const { return mError; }

private:
    QString data() const { return mDir.filePath("data"); }
    QString log() const
    {
        QFile f(mDir.filePath("server.log"));
        return f.open(QIODevice::ReadOnly) ? "\n" + QString::fromUtf8(f.readAll().right(2000)) : QString();
    }
    bool failed(const QString& why)
    {
        mError = why;
        return false;
    }
    bool pg(const QString& tool, const QStringList& args, int timeoutS)
    {
        const QString program = mBin + "/" + tool;
        if (mRoot)
            return run("runuser", QStringList{"-u", "postgres", "--", program} + args, timeoutS);
        return run(program, args, timeoutS);
    }
    bool run(const QString& program, const QStringList& args, int timeoutS)
    {
        QProcess p;
        p.setProcessChannelMode(QProcess::MergedChannels);
        p.setWorkingDirectory(mDir.path());
        p.start(program, args);
        if (!p.waitForFinished(timeoutS * 1000)) {
            p.kill();
            p.waitForFinished(5000);
            mLastOutput = program + " did not finish in " + QString::number(timeoutS) + " s";
            return false;
        }
        mLastOutput = QString::fromUtf8(p.readAll()).trimmed();
        return p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0;
    }

    QTemporaryDir mDir{QDir::tempPath() + "/gpuplan-pg-XXXXXX"};
    QString mBin;
    bool mRoot = false;
    bool mRunning = false;
    int mPort = 0;
    QString mError;
    QString mLastOutput;
};

} // namespace gp::test
