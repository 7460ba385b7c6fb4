// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "model/issue.h"

#include <QByteArray>
#include <QDateTime>
#include <QString>
#include <QStringList>

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <vector>

namespace gp::store {

struct RevisionInfo
{
    qint64 id = 0;
    int number = 0; ///< 1, 2, ... within its scenario
    QString note;
    QDateTime createdAt;
    std::map<QString, double> kpis;
    QString author; ///< who saved it: the database role, or the OS user for a SQLite library
};

/// Unsaved work of one workbench session, written a few seconds after each edit so that a
/// crash loses at most those seconds (docs/workbench.md, "Autosave and recovery").
struct Draft
{
    QString session;                  ///< the session that wrote it (one draft per session)
    std::optional<qint64> scenarioId; ///< the library scenario it was opened from, if any
    std::optional<int> baseRevision;  ///< and the revision it started from
    QString name;
    QByteArray document; ///< the scenario JSON
    QDateTime savedAt;
};

/// A scenario to create with its first revision (ScenarioLibrary::seedIfEmpty).
struct NewScenario
{
    QString name;
    QString description;
    QByteArray document;
    QString note;
    std::map<QString, double> kpis;
};

/// One stored version of a calibration profile (docs/calibration.md#profiles).
struct StoredProfile
{
    QString name;
    int version = 0; ///< 1, 2, ... within its name
    QString author;
    QString createdAt; ///< as the profile states it (ISO 8601)
    QString measurementsDigest;
    QByteArray document; ///< the profile file's content, byte for byte as stored
};

struct ScenarioSummary
{
    qint64 id = 0;
    QString name;
    QString description;
    QStringList tags;
    QDateTime createdAt;
    QDateTime updatedAt;
    int revisionCount = 0;
    RevisionInfo latest; ///< the newest revision, with its KPIs
};

namespace detail {
enum class Dialect;
}

/// The scenario library (architecture.md §6): scenarios with numbered, noted, authored revisions
/// that each keep the JSON document as it was saved, plus KPI values to sort and compare by. One
/// interface, two backends: a SQLite file (the default, no server; versioned with PRAGMA
/// user_version, WAL, foreign keys on) or a team library on a PostgreSQL server through Qt's
/// QPSQL driver (`postgresql://user@host:port/dbname`, docs/team-library.md; the version in the
/// table gpuplan_schema). The same schema and migration steps on both; every write in one
/// transaction, so a failed write changes nothing; a save that names the revision it started
/// from is refused as a conflict when that is no longer the latest.
class ScenarioLibrary
{
public:
    static constexpr int kSchemaVersion = 6;
    /// The issue path of a save refused because another save came first (isConflict).
    static constexpr const char* kConflict = "save conflict";
    static constexpr int kApplicationId = 0x47504c4e; // "GPLN"
    static constexpr int kBusyTimeoutMs = 3000;

    /// Opens (creating if needed) and migrates the library at `path` — a file, or a server
    /// address (`postgresql://…`, openServer). On failure the issue names the file or server and
    /// says what and why; a damaged, newer, read-only or locked file is left untouched. Writes
    /// wait up to `kBusyTimeoutMs` for another program's lock before they fail with a message that
    /// says so.
    static Result<std::unique_ptr<ScenarioLibrary>> open(const QString& path);
    /// Connects to a team library on a PostgreSQL server (serveraddress.h), creating the schema
    /// in an empty database (or migrating an older one) when the role may; refuses a database
    /// that holds other tables, a newer schema, an unreachable server or a wrong password with the
    /// server and the reason. `password`: only when the user typed one (kept in memory only).
    static Result<std::unique_ptr<ScenarioLibrary>> openServer(const QString& address, const QString& password = {});
    ~ScenarioLibrary();
    ScenarioLibrary(const ScenarioLibrary&) = delete;
    ScenarioLibrary& operator=(const ScenarioLibrary&) = delete;

    /// The file, or the server address as given.
    QString path() const { return mPath; }
    bool isServer() const;
    /// Who the library records as the author of this program's saves.
    QString author() const { return mAuthor; }
    /// The password the user typed for a team library, kept in memory only (the live library's
    /// watcher connects with it too); empty when libpq found it itself or none is needed.
    QString password() const { return mPassword; }
    /// Whether this program may save to the library: false for a team library whose role may
    /// only read it (a viewer); the workbench then opens everything read-only and says why.
    bool canWrite() const { return mCanWrite; }
    /// The two roles of a team library (docs/team-library.md): gpuplan_planner (read and write)
    /// and gpuplan_viewer (read only), created where missing and granted on every table; people
    /// get one with `CREATE ROLE alice LOGIN IN ROLE gpuplan_planner`. Needs a role that may
    /// create roles; refused on a SQLite file.
    Status initServerRoles();
    static constexpr const char* kPlannerRole = "gpuplan_planner";
    static constexpr const char* kViewerRole = "gpuplan_viewer";

    // Every call returns its value, or an issue that says what could not be done and why
    // (Issue::path: "cannot save 'name'", "scenario 7"; Issue::message: the reason).

    /// New scenario with its first revision; returns the scenario id.
    Result<qint64> createScenario(const QString& name, const QString& description, const QByteArray& document,
                                  const QString& note, const std::map<QString, double>& kpis);
    /// Creates all of `scenarios` in one transaction if the library holds no scenario yet (the
    /// bundled samples at first start), nothing otherwise; returns how many it created. Killed
    /// or failed halfway, it leaves none of them, and the next start seeds again; two programs
    /// starting at once seed once.
    Result<int> seedIfEmpty(const std::vector<NewScenario>& scenarios);
    /// New revision of an existing scenario; returns its number. With `baseRevision` (the
    /// revision the edits started from), refused as a conflict (isConflict: who saved which
    /// revision when) unless that is still the latest.
    Result<int> addRevision(qint64 scenarioId, const QByteArray& document, const QString& note,
                            const std::map<QString, double>& kpis, std::optional<int> baseRevision = {});
    /// Whether a save was refused because another save came first.
    static bool isConflict(const Issues& issues);

    Result<std::vector<ScenarioSummary>> list();
    Result<ScenarioSummary> scenario(qint64 id);
    Result<std::vector<RevisionInfo>> revisions(qint64 scenarioId);
    /// The document of `revision` (latest when nullopt), byte for byte as saved.
    Result<QByteArray> document(qint64 scenarioId, std::optional<int> revision = {});

    Status rename(qint64 scenarioId, const QString& name);
    Status setTags(qint64 scenarioId, const QStringList& tags);
    Status deleteScenario(qint64 scenarioId);
    Result<int> scenarioCount();

    /// Stores the next version of the calibration profile `name` (1 for a new name), in one
    /// transaction: `document(version)` gives the profile's JSON carrying that version.
    Result<int> addCalibrationProfile(const QString& name, const QString& author, const QString& createdAt,
                                      const QString& measurementsDigest,
                                      const std::function<QByteArray(int version)>& document);
    /// Every stored version of every profile (or of `name`), by name then version.
    Result<std::vector<StoredProfile>> calibrationProfiles(const QString& name = {});
    /// One version of a profile (the latest when nullopt); an error naming it when there is none.
    Result<StoredProfile> calibrationProfile(const QString& name, std::optional<int> version = {});

    /// Writes (or replaces) the draft of `draft.session`, in one transaction.
    Status saveDraft(const Draft& draft);
    /// Every draft, newest first.
    Result<std::vector<Draft>> drafts();
    Status deleteDraft(const QString& session);

    /// SQLite's PRAGMA integrity_check: "ok", or what is damaged.
    Result<QString> integrityCheck();

private:
    ScenarioLibrary(QString path, QString connection, detail::Dialect dialect);
    Status migrateSqlite();
    /// The schema version of the SQLite file (0: empty, a new library), read without writing
    /// anything; refused unless the file is empty or carries gpuplan's application id and the
    /// tables of its version.
    Result<int> sqliteVersion();
    Status migratePostgres();
    Failure conflict(qint64 scenarioId, int baseRevision);
    /// Inserts a scenario and its first revision inside the caller's transaction.
    Result<qint64> insertScenario(const NewScenario& scenario);
    /// On a team library, a read first checks the connection and opens it again when the server
    /// or the network dropped it (a write does so when its transaction begins).
    void reviveIfLost();
    /// On a team library, NOTIFY gpuplan_library with the scenario id (sent at commit).
    Status notifyChange(qint64 scenarioId);
    Status exists(qint64 scenarioId);
    /// Every scenario's summary, or only `only`'s (empty when it does not exist).
    Result<std::vector<ScenarioSummary>> summaries(std::optional<qint64> only);

    QString mPath;
    QString mConnection;
    detail::Dialect mDialect;
    QString mAuthor;
    QString mPassword;
    bool mCanWrite = true;
};

} // namespace gp::store
