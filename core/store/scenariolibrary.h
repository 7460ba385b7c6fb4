// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "model/issue.h"

#include <QByteArray>
#include <QDateTime>
#include <QString>
#include <QStringList>

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

/// The SQLite scenario library (architecture.md §6): scenarios with numbered, noted revisions
/// that each keep the JSON document as it was saved, plus KPI values to sort and compare by.
/// Versioned with PRAGMA user_version and one migration step per version; WAL; foreign
/// keys on; every write in one transaction, so a failed write changes nothing.
class ScenarioLibrary
{
public:
    static constexpr int kSchemaVersion = 3;
    static constexpr int kApplicationId = 0x47504c4e; // "GPLN"
    static constexpr int kBusyTimeoutMs = 3000;

    /// Opens (creating if needed) and migrates the library at `path`. On failure the issue
    /// names the file and says what and why; a damaged, newer, read-only or locked file is left
    /// untouched. Writes wait up to `kBusyTimeoutMs` for another program's lock before they
    /// fail with a message that says so.
    static Result<std::unique_ptr<ScenarioLibrary>> open(const QString& path);
    ~ScenarioLibrary();
    ScenarioLibrary(const ScenarioLibrary&) = delete;
    ScenarioLibrary& operator=(const ScenarioLibrary&) = delete;

    QString path() const { return mPath; }

    // Every call returns its value, or an issue that says what could not be done and why
    // (Issue::path: "cannot save 'name'", "scenario 7"; Issue::message: the reason).

    /// New scenario with its first revision; returns the scenario id.
    Result<qint64> createScenario(const QString& name, const QString& description, const QByteArray& document,
                                  const QString& note, const std::map<QString, double>& kpis);
    /// New revision of an existing scenario; returns its number.
    Result<int> addRevision(qint64 scenarioId, const QByteArray& document, const QString& note,
                            const std::map<QString, double>& kpis);

    Result<std::vector<ScenarioSummary>> list();
    Result<ScenarioSummary> scenario(qint64 id);
    Result<std::vector<RevisionInfo>> revisions(qint64 scenarioId);
    /// The document of `revision` (latest when nullopt), byte for byte as saved.
    Result<QByteArray> document(qint64 scenarioId, std::optional<int> revision = {});

    Status rename(qint64 scenarioId, const QString& name);
    Status setTags(qint64 scenarioId, const QStringList& tags);
    Status deleteScenario(qint64 scenarioId);
    Result<int> scenarioCount();

    /// Writes (or replaces) the draft of `draft.session`, in one transaction.
    Status saveDraft(const Draft& draft);
    /// Every draft, newest first.
    Result<std::vector<Draft>> drafts();
    Status deleteDraft(const QString& session);

    /// SQLite's PRAGMA integrity_check: "ok", or what is damaged.
    Result<QString> integrityCheck();

private:
    explicit ScenarioLibrary(QString path, QString connection);
    Status migrate();
    Status exists(qint64 scenarioId);
    /// Every scenario's summary, or only `only`'s (empty when it does not exist).
    Result<std::vector<ScenarioSummary>> summaries(std::optional<qint64> only);

    QString mPath;
    QString mConnection;
};

} // namespace gp::store
