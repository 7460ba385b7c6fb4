// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "clicontext.h"

#include "model/limits.h"
#include "model/miglayout.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace gp::cli {

namespace {

QString migCapableGpus(const Catalog& c)
{
    QStringList names;
    for (const auto& g : c.gpus)
        if (g.supportsMig())
            names << QString::fromStdString(g.id);
    return names.join(", ");
}

} // namespace

int runMigLayouts(const QStringList& args)
{
    CommandLine cl("mig-layouts", "Enumerate every valid MIG layout of a GPU from the catalog: instances at allowed "
                                  "start slices, no overlapping memory slices, at most 7 compute slices, per-profile "
                                  "instance limits (NVIDIA MIG User Guide).");
    auto& p = cl.parser();
    p.addOption({"gpu", "GPU id or name from the catalog, case-insensitive (e.g. A100-40GB, H100-80GB).", "NAME"});
    p.addOption({"profiles", "Only use these profiles (comma-separated, e.g. 3g.40gb,2g.20gb).", "P1,P2"});
    p.addOption({"maximal", "Only layouts to which no further instance of the allowed profiles fits."});
    p.addOption({"json", "Print JSON: {\"gpu\", \"count\", \"truncated\", \"layouts\": [[{\"profile\", \"start\"}]]} "
                         "(truncated: stopped at the limit on layouts, the first ones listed)."});
    if (auto done = cl.parse(args))
        return *done;
    if (!p.isSet("gpu")) {
        err() << cl.usageError("--gpu NAME is required") << Qt::endl;
        return kBadInput;
    }
    if (!p.positionalArguments().isEmpty()) {
        err() << cl.usageError("unexpected argument '" + p.positionalArguments().first() + "'") << Qt::endl;
        return kBadInput;
    }
    auto catalog = loadCatalogOrReport(p);
    if (!catalog)
        return kFailure;
    const GpuSpec* gpu = catalog->findGpu(p.value("gpu").toStdString());
    if (!gpu) {
        err() << "gpuplan-cli mig-layouts: no GPU '" << p.value("gpu")
              << "' in the catalog (MIG-capable: " << migCapableGpus(*catalog) << ")" << Qt::endl;
        return kBadInput;
    }
    if (!gpu->supportsMig()) {
        err() << "gpuplan-cli mig-layouts: " << QString::fromStdString(gpu->name)
              << " does not support MIG (MIG-capable: " << migCapableGpus(*catalog) << ")" << Qt::endl;
        return kBadInput;
    }
    std::vector<std::string> profiles;
    if (p.isSet("profiles")) {
        for (const QString& name : p.value("profiles").split(',', Qt::SkipEmptyParts)) {
            const std::string n = name.trimmed().toStdString();
            if (!gpu->migProfile(n)) {
                QStringList known;
                for (const auto& mp : gpu->migProfiles)
                    known << QString::fromStdString(mp.name);
                err() << "gpuplan-cli mig-layouts: '" << name.trimmed() << "' is not a MIG profile of "
                      << QString::fromStdString(gpu->name) << " (profiles: " << known.join(", ") << ")" << Qt::endl;
                return kBadInput;
            }
            profiles.push_back(n);
        }
        if (profiles.empty()) {
            err() << cl.usageError("--profiles lists no profile") << Qt::endl;
            return kBadInput;
        }
    }
    // Bounded (limits::kMaxMigLayouts, kMaxMigSearchSteps): a user catalog with many small
    // profiles has hundreds of millions of layouts; the first ones are listed, and it says so.
    const mig::Enumeration found =
        mig::enumerateBounded(*gpu, profiles, p.isSet("maximal"), limits::kMaxMigLayouts, limits::kMaxMigSearchSteps);
    const auto& layouts = found.layouts;
    if (found.truncated)
        err() << "gpuplan-cli mig-layouts: " << QString::fromStdString(found.limitReason) << Qt::endl;
    if (p.isSet("json")) {
        QJsonArray arr;
        for (const auto& layout : layouts) {
            QJsonArray instances;
            for (const auto& inst : layout)
                instances.append(QJsonObject{{"profile", QString::fromStdString(inst.profile)}, {"start", inst.start}});
            arr.append(instances);
        }
        const QJsonObject root{{"gpu", QString::fromStdString(gpu->id)},
                               {"count", static_cast<int>(layouts.size())},
                               {"truncated", found.truncated},
                               {"layouts", arr}};
        out() << QJsonDocument(root).toJson(QJsonDocument::Indented) << Qt::flush;
        return kOk;
    }
    out() << layouts.size() << (p.isSet("maximal") ? " maximal" : "") << " MIG layout(s) of "
          << QString::fromStdString(gpu->name) << " (profile@start slice):\n";
    for (const auto& layout : layouts) {
        QStringList parts;
        int compute = 0;
        double gib = 0;
        for (const auto& inst : layout) {
            parts << QString("%1@%2").arg(QString::fromStdString(inst.profile)).arg(inst.start);
            const MigProfile* mp = gpu->migProfile(inst.profile);
            compute += mp->computeSlices;
            gib += mp->usableGiB;
        }
        out() << "  " << parts.join(" + ") << "   [" << compute << "/7 compute, " << gib << " GiB]\n";
    }
    if (found.truncated)
        out() << "  … stopped at the limit: " << QString::fromStdString(found.limitReason) << '\n';
    out() << Qt::flush;
    return kOk;
}

} // namespace gp::cli
