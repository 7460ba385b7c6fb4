// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

// The cluster-import fixtures and lookups shared by tst_clusterimport and tst_slurmimport.
#include "clirunner.h"
#include "io/clusterimport.h"
#include "testsupport.h"

#include <QDir>
#include <QString>

namespace gp::test::cluster {

inline QString fixture(const QString& name) { return QDir(fixturesDir()).filePath("cluster/" + name); }

inline io::ClusterInput input(const QString& path) { return {readAll(path), path}; }

inline QString dump(const Issues& issues) { return QString::fromStdString(issueLines(issues)); }

inline const Job* job(const Scenario& s, const std::string& name)
{
    for (const Tenant& t : s.tenants)
        for (const Job& j : t.jobs)
            if (j.name == name)
                return &j;
    return nullptr;
}

inline const Tenant* tenantOf(const Scenario& s, const std::string& jobName)
{
    for (const Tenant& t : s.tenants)
        for (const Job& j : t.jobs)
            if (j.name == jobName)
                return &t;
    return nullptr;
}

inline const Node* nodeNamed(const Scenario& s, const std::string& name)
{
    for (const Node& n : s.topology.nodes)
        if (n.name == name)
            return &n;
    return nullptr;
}

inline io::ClusterImportOptions slurmOptions()
{
    io::ClusterImportOptions o;
    o.gpuMap["h100"] = "h100-80gb"; // Slurm's GRES type says only "h100": which one is the user's to say
    return o;
}

} // namespace gp::test::cluster
