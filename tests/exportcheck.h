// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// Checking a cluster export (export-config) as its readers do, for tst_clusterobjects and
// tst_kaiexport: the published schemas through tests/data/schemas/validate_export.py, and every
// YAML file read back by PyYAML.
#pragma once

#include "testsupport.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QString>

namespace gp::test {

struct Check
{
    int code = -1;
    QString output;
};

/// Whether python3 has what validate_export.py needs (python3-jsonschema, python3-yaml: scripts/deps.sh).
inline bool schemaToolsPresent()
{
    QProcess p;
    p.start("python3", {"-c", "import jsonschema, yaml"});
    return p.waitForFinished(30000) && p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0;
}

/// tests/data/schemas/validate_export.py on `dir`.
inline Check validateExport(const QString& dir)
{
    QProcess p;
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start("python3", {fixturesDir() + "/schemas/validate_export.py", dir});
    if (!p.waitForFinished(120000))
        return {};
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, QString::fromUtf8(p.readAllStandardOutput())};
}

/// Every YAML stream under `dir`, parsed by PyYAML: relative path -> list of documents.
inline QJsonObject readExportYaml(const QString& dir)
{
    QProcess p;
    p.start("python3", {"-c",
                        "import json, pathlib, sys, yaml\n"
                        "root = pathlib.Path(sys.argv[1])\n"
                        "print(json.dumps({str(f.relative_to(root)): [d for d in yaml.safe_load_all(f.read_text()) "
                        "if d is not None] for f in root.rglob('*.yaml')}))\n",
                        dir});
    if (!p.waitForFinished(60000) || p.exitCode() != 0)
        qFatal("python3 yaml failed: %s", p.readAllStandardError().constData());
    return QJsonDocument::fromJson(p.readAllStandardOutput()).object();
}

} // namespace gp::test
