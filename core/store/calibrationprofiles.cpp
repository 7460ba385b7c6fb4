// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// Calibration profiles in the scenario library (schema 6; docs/calibration.md#profiles).
#include "scenariolibrary.h"
#include "sqlsupport.h"

#include <QSqlQuery>
#include <QVariant>

namespace gp::store {

using detail::fail;
using detail::Statement;

Result<int> ScenarioLibrary::addCalibrationProfile(const QString& name, const QString& author, const QString& createdAt,
                                                   const QString& measurementsDigest,
                                                   const std::function<QByteArray(int version)>& document)
{
    const QString what = "cannot store calibration profile '" + name + "'";
    if (name.trimmed().isEmpty())
        return fail(what, "a profile needs a name");
    detail::Transaction tx(mConnection, mDialect);
    if (!tx.active())
        return fail(what, tx.error());
    Statement last(mConnection, "SELECT COALESCE(MAX(version), 0) FROM calibration_profiles WHERE name = ?");
    if (!last.bind(name).exec() || !last.query().next())
        return fail(what, last.error());
    const int version = last.query().value(0).toInt() + 1;
    last.query().finish();
    Statement s(mConnection, "INSERT INTO calibration_profiles (name, version, author, created_at, "
                             "measurements_digest, document) VALUES (?, ?, ?, ?, ?, ?)");
    if (!s.bind(name)
             .bind(version)
             .bind(author)
             .bind(createdAt)
             .bind(measurementsDigest)
             .bind(QString::fromUtf8(document(version)))
             .run())
        return fail(what, s.error());
    if (!tx.commit())
        return fail(what, tx.error());
    return Result<int>::success(version);
}

Result<std::vector<StoredProfile>> ScenarioLibrary::calibrationProfiles(const QString& name)
{
    reviveIfLost();
    Statement s(mConnection, name.isEmpty() ? "SELECT name, version, author, created_at, measurements_digest, document"
                                              " FROM calibration_profiles ORDER BY name, version"
                                            : "SELECT name, version, author, created_at, measurements_digest, document"
                                              " FROM calibration_profiles WHERE name = ? ORDER BY name, version");
    if (!name.isEmpty())
        s.bind(name);
    if (!s.exec())
        return fail("cannot read calibration profiles", s.error());
    std::vector<StoredProfile> out;
    while (s.query().next())
        out.push_back({s.query().value(0).toString(), s.query().value(1).toInt(), s.query().value(2).toString(),
                       s.query().value(3).toString(), s.query().value(4).toString(),
                       s.query().value(5).toString().toUtf8()});
    return Result<std::vector<StoredProfile>>::success(std::move(out));
}

Result<StoredProfile> ScenarioLibrary::calibrationProfile(const QString& name, std::optional<int> version)
{
    auto all = calibrationProfiles(name);
    if (!all)
        return Failure{std::move(all.issues)};
    if (all->empty())
        return fail("calibration profile '" + name + "'", "the library has no profile of that name");
    if (!version)
        return Result<StoredProfile>::success(all->back());
    for (const StoredProfile& p : *all)
        if (p.version == *version)
            return Result<StoredProfile>::success(p);
    return fail("calibration profile '" + name + "'", "the library has no version " + QString::number(*version) +
                                                          " (it has 1 to " + QString::number(all->back().version) +
                                                          ")");
}

} // namespace gp::store
