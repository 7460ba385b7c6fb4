// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

// A single-node Slurm for the sweep tests: munged, slurmctld and slurmd from Debian's
// slurm-wlm and munge on this host, with their configuration, state, spool, logs and munge
// socket in a temporary folder, ports chosen from the process id; stopped when the object goes,
// and by a watchdog if the test process dies first. start() says why when Slurm cannot run here
// (not installed, not root, a daemon that does not come up) so the test can say so too.
#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QSysInfo>
#include <QTemporaryDir>
#include <QThread>

#include <unistd.h>

namespace gp::test {

class SlurmCluster
{
public:
    /// Starts the cluster; `gres` (such as "gpu:h100:4,gpu:1g.10gb:7") gives the node GPU GRES,
    /// each a device node made here (`mknod`, NVIDIA's major 195) so that slurmd counts them,
    /// written to gres.conf by type (for the cluster import's tests, issue 38).
    bool start(const QString& gres = {})
    {
        for (const char* tool : {"/usr/sbin/munged", "/usr/sbin/slurmctld", "/usr/sbin/slurmd", "/usr/bin/sbatch"})
            if (!QFileInfo::exists(tool))
                return failed(QString("%1 is not installed (Debian packages slurm-wlm and munge)").arg(tool));
        if (::geteuid() != 0)
            return failed("slurmd needs root to start jobs as their user");
        if (!mDir.isValid())
            return failed("no temporary folder");
        const QString d = mDir.path();
        for (const char* sub : {"state", "spool", "log", "munge"})
            QDir(d).mkpath(sub);
        if (!run("chown", {"munge:munge", d + "/munge"}) || !run("chmod", {"755", d}))
            return failed("cannot prepare the munge folder: " + mOutput);
        const int base = 20000 + static_cast<int>(::getpid() % 20000) * 2;
        QString gresLines;
        QString gresConf;
        if (!gres.isEmpty()) {
            QDir(d).mkpath("dev");
            int device = 0;
            for (const QString& item : gres.split(',')) {
                const QStringList parts = item.split(':'); // gpu:TYPE:COUNT
                if (parts.size() != 3)
                    return failed("GRES '" + item + "' is not gpu:TYPE:COUNT");
                const int first = device;
                device += parts[2].toInt();
                for (int i = first; i < device; ++i)
                    if (!run("mknod", {QString("%1/dev/nvidia%2").arg(d).arg(i), "c", "195", QString::number(i)}))
                        return failed("cannot make a device node: " + mOutput);
                gresConf += QString("NodeName=%1 Name=gpu Type=%2 File=%3/dev/nvidia[%4-%5]\n")
                                .arg(QSysInfo::machineHostName(), parts[1], d)
                                .arg(first)
                                .arg(device - 1);
            }
            gresLines = "GresTypes=gpu\nSlurmdParameters=config_overrides\n";
            QFile gf(d + "/gres.conf");
            if (!gf.open(QIODevice::WriteOnly))
                return failed("cannot write gres.conf");
            gf.write(("AutoDetect=off\n" + gresConf).toUtf8());
        }
        const QString host = QSysInfo::machineHostName();
        QFile conf(d + "/slurm.conf");
        if (!conf.open(QIODevice::WriteOnly))
            return failed("cannot write slurm.conf");
        conf.write(QString("ClusterName=gpuplantest\nSlurmctldHost=%1\nSlurmctldPort=%2\nSlurmdPort=%3\n"
                           "AuthType=auth/munge\nAuthInfo=socket=%4/munge/munge.socket.2\nSlurmUser=root\n"
                           "SlurmdUser=root\nStateSaveLocation=%4/state\nSlurmdSpoolDir=%4/spool\n"
                           "SlurmctldPidFile=%4/slurmctld.pid\nSlurmdPidFile=%4/slurmd.pid\n"
                           "SlurmctldLogFile=%4/log/slurmctld.log\nSlurmdLogFile=%4/log/slurmd.log\n"
                           "ProctrackType=proctrack/linuxproc\nTaskPlugin=task/none\nSchedulerType=sched/builtin\n"
                           "SelectType=select/cons_tres\nSelectTypeParameters=CR_CPU\nMpiDefault=none\n"
                           "ReturnToService=2\nJobAcctGatherType=jobacct_gather/none\n"
                           "AccountingStorageType=accounting_storage/none\n"
                           "%6NodeName=%1 CPUs=%5%7 State=UNKNOWN\n"
                           "PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP\n")
                       .arg(host)
                       .arg(base)
                       .arg(base + 1)
                       .arg(d)
                       // With GRES, room for a job per GPU: slurmd takes the configured CPUs (config_overrides).
                       .arg(gres.isEmpty() ? std::max(1, QThread::idealThreadCount()) : 32)
                       .arg(gresLines, gres.isEmpty() ? QString() : " Gres=" + gres)
                       .toUtf8());
        conf.close();
        qputenv("SLURM_CONF", (d + "/slurm.conf").toUtf8());
        if (!run("runuser", {"-u", "munge", "--", "/usr/sbin/munged", "--socket=" + d + "/munge/munge.socket.2",
                             "--pid-file=" + d + "/munge/munged.pid", "--log-file=" + d + "/munge/munged.log",
                             "--seed-file=" + d + "/munge/seed"}))
            return failed("munged did not start: " + mOutput);
        mStarted = true;
        // The watchdog: whatever ends this process, the daemons go with it.
        QProcess::startDetached("sh", {"-c", QString("while kill -0 %1 2>/dev/null; do sleep 1; done; %2")
                                                 .arg(QCoreApplication::applicationPid())
                                                 .arg(stopCommand())});
        if (!run("/usr/sbin/slurmctld", {"-f", d + "/slurm.conf"}) ||
            !run("/usr/sbin/slurmd", {"-f", d + "/slurm.conf"}))
            return failed("slurmctld or slurmd did not start: " + mOutput + log());
        for (int i = 0; i < 60; ++i) { // the node registers within seconds
            run("/usr/bin/sinfo", {"-h", "-o", "%T"});
            if (mOutput.startsWith("idle"))
                return true;
            QThread::msleep(500);
        }
        return failed("the node did not become idle: " + mOutput + log());
    }

    ~SlurmCluster()
    {
        if (mStarted)
            run("sh", {"-c", stopCommand()});
    }

    /// Submits `script` as an array of tasks 0..count-1 with `env` exported; the job id.
    std::optional<QString> submitArray(const QString& script, int count, const QStringList& env, const QString& workDir)
    {
        if (!run("/usr/bin/sbatch", {"--parsable", QString("--array=0-%1").arg(count - 1), "--chdir=" + workDir,
                                     "--export=ALL," + env.join(','), script}))
            return std::nullopt;
        return mOutput.section(';', 0, 0);
    }

    /// Submits `script` with sbatch's `options` (--job-name, --account, --gres, ...); the job id.
    std::optional<QString> submit(const QString& script, const QStringList& options, const QString& workDir)
    {
        if (!run("/usr/bin/sbatch",
                 QStringList{"--parsable", "--chdir=" + workDir, "--output=/dev/null"} + options + QStringList{script}))
            return std::nullopt;
        return mOutput.section(';', 0, 0);
    }

    /// Cancels every job (so that a test's sleeping jobs end with it).
    void cancelAll() { run("/usr/bin/scancel", {"--full", "--user=root"}); }

    /// Waits until no job is queued or running (false after `timeoutS`).
    bool waitIdle(int timeoutS)
    {
        for (int i = 0; i < timeoutS * 2; ++i) {
            if (run("/usr/bin/squeue", {"-h"}) && mOutput.isEmpty())
                return true;
            QThread::msleep(500);
        }
        return false;
    }

    QString error() const { return mError; }

private:
    QString stopCommand() const
    {
        const QString d = mDir.path();
        return QString("for f in %1/slurmd.pid %1/slurmctld.pid %1/munge/munged.pid; do [ -f $f ] && kill $(cat $f) "
                       "2>/dev/null; done; sleep 1; rm -rf '%1'")
            .arg(d);
    }
    QString log() const
    {
        QFile f(mDir.path() + "/log/slurmctld.log");
        return f.open(QIODevice::ReadOnly) ? "\n" + QString::fromUtf8(f.readAll().right(1500)) : QString();
    }
    bool failed(const QString& why)
    {
        mError = why;
        return false;
    }
    bool run(const QString& program, const QStringList& args)
    {
        QProcess p;
        p.setProcessChannelMode(QProcess::MergedChannels);
        p.start(program, args);
        if (!p.waitForFinished(30000)) {
            p.kill();
            p.waitForFinished(5000);
            mOutput = program + " did not finish in 30 s";
            return false;
        }
        mOutput = QString::fromUtf8(p.readAll()).trimmed();
        return p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0;
    }

    QTemporaryDir mDir{QDir::tempPath() + "/gpuplan-slurm-XXXXXX"};
    bool mStarted = false;
    QString mError;
    QString mOutput;
};

} // namespace gp::test
