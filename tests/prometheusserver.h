// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

// A throwaway Prometheus (Debian's prometheus package) for the plan-vs-measured tests: recorded
// dcgm-exporter samples (Prometheus text lines) replicated over a time range into an OpenMetrics
// file, backfilled with `promtool tsdb create-blocks-from openmetrics` into a TSDB in a temporary
// folder, served on 127.0.0.1 at a free port with no scrape targets. Every step is bounded; the
// server is stopped when the object goes, and by a watchdog if the test process dies first.
#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QHostAddress>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QProcess>
#include <QRegularExpression>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QThread>
#include <QTimer>

#include <map>
#include <utility>
#include <vector>

namespace gp::test {

/// A port on 127.0.0.1 that nothing listened on a moment ago.
inline quint16 freeLocalPort()
{
    QTcpServer s;
    return s.listen(QHostAddress::LocalHost, 0) ? s.serverPort() : 0;
}

class PrometheusServer
{
public:
    struct Range
    {
        double fromS = 0.0;
        double toS = 0.0;
        double intervalS = 30.0; ///< dcgm-exporter's default collection interval
    };

    /// Backfills `promFiles` (each sample replicated at every interval of `range`; none: an empty
    /// TSDB) and starts the server; false with the reason in error().
    bool start(const QStringList& promFiles, const Range& range)
    {
        for (const char* tool : {"/usr/bin/prometheus", "/usr/bin/promtool"})
            if (!QFileInfo::exists(tool))
                return failed(QString("%1 is not installed (the Debian package prometheus)").arg(tool));
        if (!mDir.isValid())
            return failed("no temporary folder");
        QElapsedTimer clock;
        clock.start();
        const QString data = mDir.filePath("data");
        QDir().mkpath(data);
        if (!promFiles.isEmpty()) {
            if (!writeOpenMetrics(promFiles, range, mDir.filePath("backfill.om")))
                return false;
            if (!run("/usr/bin/promtool",
                     {"tsdb", "create-blocks-from", "openmetrics", mDir.filePath("backfill.om"), data}, 120))
                return failed("promtool create-blocks-from openmetrics failed: " + mOutput);
        }
        mBackfillS = clock.elapsed() / 1000.0;
        QFile config(mDir.filePath("prometheus.yml"));
        if (!config.open(QIODevice::WriteOnly) || config.write("global:\n  scrape_interval: 1m\n") < 0)
            return failed("cannot write prometheus.yml");
        config.close();
        for (int attempt = 0; attempt < 3 && !mRunning; ++attempt) { // a port taken in between: another one
            mPort = freeLocalPort();
            mProcess.setProcessChannelMode(QProcess::MergedChannels);
            mProcess.setStandardOutputFile(mDir.filePath("prometheus.log"));
            mProcess.start("/usr/bin/prometheus",
                           {"--config.file=" + config.fileName(), "--storage.tsdb.path=" + data,
                            QString("--web.listen-address=127.0.0.1:%1").arg(mPort),
                            // The backfilled samples are old: keep them (retention counts from the newest block).
                            "--storage.tsdb.retention.time=100y", "--log.level=warn"});
            if (!mProcess.waitForStarted(10000))
                return failed("prometheus did not start: " + mProcess.errorString());
            mRunning = true;
            QProcess::startDetached(
                "sh", {"-c", QString("while kill -0 %1 2>/dev/null; do sleep 1; done; kill %2 2>/dev/null; sleep 2; "
                                     "kill -9 %2 2>/dev/null; rm -rf '%3'")
                                 .arg(QCoreApplication::applicationPid())
                                 .arg(mProcess.processId())
                                 .arg(mDir.path())});
            if (waitReady(60))
                break;
            stop();
        }
        if (!mRunning)
            return failed("prometheus did not become ready: " + log());
        mStartS = clock.elapsed() / 1000.0 - mBackfillS;
        return true;
    }

    ~PrometheusServer() { stop(); }

    void stop()
    {
        if (!mRunning)
            return;
        mProcess.terminate();
        if (!mProcess.waitForFinished(10000)) {
            mProcess.kill();
            mProcess.waitForFinished(5000);
        }
        mRunning = false;
    }

    QString url() const { return QString("http://127.0.0.1:%1").arg(mPort); }
    QString error() const { return mError; }
    double backfillS() const { return mBackfillS; }
    double startS() const { return mStartS; }
    bool running() const { return mRunning && mProcess.state() == QProcess::Running; }

private:
    bool failed(const QString& why)
    {
        mError = why;
        return false;
    }
    QString log() const
    {
        QFile f(mDir.filePath("prometheus.log"));
        return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll().right(2000)) : QString();
    }
    bool run(const QString& program, const QStringList& args, int timeoutS)
    {
        QProcess p;
        p.setProcessChannelMode(QProcess::MergedChannels);
        p.start(program, args);
        if (!p.waitForFinished(timeoutS * 1000)) {
            p.kill();
            p.waitForFinished(5000);
            mOutput = program + " did not finish in " + QString::number(timeoutS) + " s";
            return false;
        }
        mOutput = QString::fromUtf8(p.readAll()).trimmed();
        return p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0;
    }
    /// GET /-/ready until it answers 200 (false after `timeoutS` or when the server exits).
    bool waitReady(int timeoutS)
    {
        QNetworkAccessManager nam;
        QElapsedTimer t;
        t.start();
        while (t.elapsed() < timeoutS * 1000 && mProcess.state() == QProcess::Running) {
            QNetworkRequest request(QUrl(url() + "/-/ready"));
            request.setTransferTimeout(2000);
            QNetworkReply* reply = nam.get(request);
            QEventLoop loop;
            QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
            if (!reply->isFinished())
                loop.exec();
            const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
            reply->deleteLater();
            if (status == 200)
                return true;
            QThread::msleep(200);
        }
        return false;
    }
    /// Prometheus text lines NAME{LABELS} VALUE (comments skipped) -> one OpenMetrics gauge family per
    /// name, each sample at every interval of the range: what promtool's backfill reads.
    bool writeOpenMetrics(const QStringList& promFiles, const Range& range, const QString& path)
    {
        static const QRegularExpression line(R"(^([A-Za-z_:][A-Za-z0-9_:]*)\{(.*)\}\s+(\S+)$)");
        std::map<QString, std::vector<std::pair<QString, QString>>> families;
        for (const QString& file : promFiles) {
            QFile f(file);
            if (!f.open(QIODevice::ReadOnly))
                return failed(file + ": cannot read");
            int n = 0;
            while (!f.atEnd()) {
                ++n;
                const QString text = QString::fromUtf8(f.readLine()).trimmed();
                if (text.isEmpty() || text.startsWith('#'))
                    continue;
                const auto m = line.match(text);
                if (!m.hasMatch())
                    return failed(QString("%1:%2: not NAME{LABELS} VALUE").arg(file).arg(n));
                families[m.captured(1)].push_back({m.captured(2), m.captured(3)});
            }
        }
        QFile out(path);
        if (!out.open(QIODevice::WriteOnly))
            return failed(path + ": cannot write");
        for (const auto& [name, samples] : families) {
            out.write(QString("# TYPE %1 gauge\n").arg(name).toUtf8());
            for (double t = range.fromS; t <= range.toS + 1e-9; t += range.intervalS)
                for (const auto& [labels, value] : samples)
                    out.write(QString("%1{%2} %3 %4\n").arg(name, labels, value).arg(t, 0, 'f', 0).toUtf8());
        }
        out.write("# EOF\n");
        return out.error() == QFileDevice::NoError;
    }

    QTemporaryDir mDir{QDir::tempPath() + "/gpuplan-prometheus-XXXXXX"};
    QProcess mProcess;
    bool mRunning = false;
    quint16 mPort = 0;
    double mBackfillS = 0.0;
    double mStartS = 0.0;
    QString mError;
    QString mOutput;
};

} // namespace gp::test
