// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// Running gpuplan-cli from a test as a user would, and the files such tests hand it.
#pragma once

#include "testsupport.h"

#include <QByteArray>
#include <QCryptographicHash>
#include <QFile>
#include <QProcess>
#include <QString>
#include <QStringList>

namespace gp::test {

struct Run
{
    int code = -1;
    QString out;
    QString err;
};

inline Run cli(const QStringList& args, const QString& home = {})
{
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    if (!home.isEmpty()) { // keep the default library and user catalog out of the real home
        env.insert("HOME", home);
        env.insert("XDG_DATA_HOME", home + "/data");
    }
    p.setProcessEnvironment(env);
    p.start(qEnvironmentVariable("GPUPLAN_CLI"), args);
    if (!p.waitForFinished(120000))
        return {};
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, QString::fromUtf8(p.readAllStandardOutput()),
            QString::fromUtf8(p.readAllStandardError())};
}

inline QByteArray readAll(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

inline QByteArray hashOf(const QString& path)
{
    return QCryptographicHash::hash(readAll(path), QCryptographicHash::Sha256);
}

/// The first sample with `from` replaced by `to`, written to `path`; false if `from` is not in it.
inline bool writeEditedSample(const QString& path, const QByteArray& from, const QByteArray& to)
{
    QFile src(gp::test::sampleFiles().front());
    src.open(QIODevice::ReadOnly);
    QByteArray json = src.readAll();
    if (!json.contains(from))
        return false;
    json.replace(from, to);
    QFile out(path);
    return out.open(QIODevice::WriteOnly) && out.write(json) == json.size();
}

} // namespace gp::test
