// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// Team library addresses under attack (docs/reliability.md §3): values that try to smuggle
// libpq keywords (user=, password=, port=) into the connection string through sslmode, the
// timeouts, the host, the database or the user name, run against a throwaway PostgreSQL 15
// (tests/pgserver.h). Each is refused with a message that names the parameter, or connects as
// the address's own user (SELECT current_user), never as another role; no message shows a
// password.
#include "clirunner.h"
#include "pgserver.h"

#include "store/scenariolibrary.h"
#include "store/serveraddress.h"

#include <QTest>

using namespace gp;
using store::ScenarioLibrary;

class TestFaultTeamAddress : public QObject
{
    Q_OBJECT

    test::PostgresServer mServer;
    QTemporaryDir mHome;
    bool mUp = false;

    /// The address of the library for alice, with `query` appended (already encoded).
    QString address(const QString& query, const QString& user = "alice", const QString& db = "plans") const
    {
        return QString("postgresql://%1@/%2?host=%3&port=%4&connect_timeout=5%5")
            .arg(user, db, mServer.socketDir())
            .arg(mServer.port())
            .arg(query);
    }

private Q_SLOTS:
    void initTestCase()
    {
        if (test::PostgresServer::binDir().isEmpty())
            QSKIP("PostgreSQL is not installed (the Debian package postgresql-15)");
        QVERIFY2(mServer.start(), qPrintable(mServer.error()));
        // alice may use the library but is no superuser; gpuplan (the server's superuser) is the
        // role an injection would like to become.
        QVERIFY2(mServer.sql("postgres", "CREATE DATABASE plans"), qPrintable(mServer.error()));
        QVERIFY2(mServer.sql("postgres", "CREATE ROLE alice LOGIN NOSUPERUSER"), qPrintable(mServer.error()));
        QVERIFY2(mServer.sql("plans", "GRANT ALL ON SCHEMA public TO alice"), qPrintable(mServer.error()));
        QVERIFY2(mServer.sql("postgres", "ALTER DATABASE plans OWNER TO alice"), qPrintable(mServer.error()));
        mUp = true;
    }

    /// A plain address connects as its user: the baseline every injection is measured against.
    void thePlainAddressConnectsAsItsUser()
    {
        auto lib = ScenarioLibrary::open(address("&sslmode=disable"));
        QVERIFY2(lib, lib.errorText().c_str());
        QCOMPARE((*lib)->author(), QString("alice"));
    }

    // Issue 34 item 6: every injection is refused (saying which parameter and why) or connects
    // as alice; the password given in the injection appears in no message.
    void injectionsConnectAsTheAddressUserOrAreRefused_data()
    {
        QTest::addColumn<QString>("where");
        QTest::addColumn<QString>("refusal"); ///< what the message must say; empty: may connect as alice
        const QString sslList = "is not one of libpq's: disable, allow, prefer, require, verify-ca, verify-full";
        QTest::newRow("sslmode + user") << address("&sslmode=disable%20user=gpuplan") << sslList;
        QTest::newRow("sslmode + password + port")
            << address("&sslmode=disable%20password=hunter2%20port=5998") << sslList;
        QTest::newRow("sslmode quoted") << address("&sslmode='disable'%20user='gpuplan'") << sslList;
        QTest::newRow("sslmode + user, encoded") << address("&sslmode=disable%20user%3Dgpuplan") << sslList;
        QTest::newRow("sslmode unknown") << address("&sslmode=sometimes") << sslList;
        QTest::newRow("connect_timeout + user")
            << address("&connect_timeout=5%20user=gpuplan") << "connect_timeout must be 1 to 600 seconds";
        QTest::newRow("statement_timeout + user")
            << address("&statement_timeout=5%20user=gpuplan") << "statement_timeout must be 1 to 3600 seconds";
        QTest::newRow("port + user") << address("&port=5432%20user=gpuplan") << "the port must be between 1 and 65535";
        QTest::newRow("password parameter") << address("&password=hunter2") << "give no password in the address";
        QTest::newRow("password in the user part") << QString("postgresql://gpuplan:hunter2@/plans?host=%1&port=%2")
                                                          .arg(mServer.socketDir())
                                                          .arg(mServer.port())
                                                   << "give no password in the address";
        QTest::newRow("line break") << address("&sslmode=disable%0Auser=gpuplan") << "control character";
        // Qt's driver quotes these itself: the whole value is one name, so the server finds no
        // such host, database or role (or, for a name that exists, connects as alice).
        QTest::newRow("host + user") << address("").replace("host=",
                                                            "host=" + mServer.socketDir() + "%20user=gpuplan%20x=")
                                     << QString();
        QTest::newRow("database + user") << address("", "alice", "plans%20user=gpuplan") << QString();
        QTest::newRow("database quote + user") << address("", "alice", "plans'%20user='gpuplan") << QString();
        QTest::newRow("user + user") << address("", "alice%20user=gpuplan") << QString();
        QTest::newRow("user quote + user") << address("", "alice'%20user='gpuplan") << QString();
        QTest::newRow("host + password") << address("").replace("host=", "host=" + mServer.socketDir() +
                                                                             "%20password=hunter2%20x=")
                                         << QString();
    }
    void injectionsConnectAsTheAddressUserOrAreRefused()
    {
        QFETCH(QString, where);
        QFETCH(QString, refusal);
        auto lib = ScenarioLibrary::open(where);
        const QString message = QString::fromStdString(lib.errorText());
        QVERIFY2(!message.contains("hunter2"), qPrintable(message));
        if (!refusal.isEmpty()) {
            QVERIFY2(!lib, qPrintable("connected as " + (lib ? (*lib)->author() : QString())));
            QVERIFY2(message.contains(refusal), qPrintable(message));
            return;
        }
        if (lib)
            QCOMPARE((*lib)->author(), QString("alice"));
        else
            QVERIFY2(message.contains("cannot connect"), qPrintable(message));
    }

    /// The same through gpuplan-cli: exit 1, the reason, and never the password.
    void theCommandLineRefusesAndMasks()
    {
        const test::Run injected = test::cli(
            {"library", "list", "--db", address("&sslmode=disable%20password=hunter2%20port=5998")}, mHome.path());
        QCOMPARE(injected.code, 1);
        QVERIFY2(injected.err.contains("sslmode"), qPrintable(injected.err));
        QVERIFY2(!injected.err.contains("hunter2"), qPrintable(injected.err));
        const test::Run echoed = test::cli({"library", "list", "--db", address("&password=hunter2")}, mHome.path());
        QCOMPARE(echoed.code, 1);
        QVERIFY2(echoed.err.contains("give no password in the address"), qPrintable(echoed.err));
        QVERIFY2(!echoed.err.contains("hunter2"), qPrintable(echoed.err));
        QVERIFY2(!echoed.out.contains("hunter2"), qPrintable(echoed.out));
    }
};

QTEST_GUILESS_MAIN(TestFaultTeamAddress)
#include "tst_fault_teamaddress.moc"
