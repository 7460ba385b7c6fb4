// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "model/scenario.h"

#include <QList>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QStringList>

#include <functional>
#include <optional>
#include <utility>

class QMenu;
class QAction;
class QWidget;

namespace gp::ui {

class CompareDialog;
class LibraryPanel;
class Workbench;

/// The library side of the workbench (docs/workbench.md, "The library"): open, new, save as a
/// revision or as a new scenario, import and export JSON, revisions, compare, duplicate,
/// rename, tags, delete and recent scenarios. Asks its questions in dialogs over `window` and
/// keeps the library panel in step; the window only places its actions in the File menu.
class LibraryController : public QObject
{
    Q_OBJECT

public:
    LibraryController(Workbench& workbench, LibraryPanel* panel, QWidget* window);

    /// Adds Import, New, Save, Save as New and Save Revision to the File menu; returns
    /// {New, Import, Save} for the toolbar.
    QList<QAction*> addFileActions(QMenu* file);
    /// Adds the Open Recent submenu.
    void addRecentMenu(QMenu* file);

    /// Opens a library scenario; shows why in a message box when it cannot.
    bool openFromLibrary(qint64 scenarioId);
    /// Opens the first scenario of the library, if any.
    void openFirst();
    /// Lists a library scenario's revisions (number, time, note, $/month) in a dialog whose
    /// Open button opens the chosen one read-only.
    void showRevisions(qint64 scenarioId);
    /// Opens one revision of a library scenario read-only (until saved as a new scenario).
    bool openRevision(qint64 scenarioId, int revision);
    /// Starts a blank, unsaved scenario (asks first about unsaved changes when `ask`).
    bool newScenario(bool ask = true);
    /// Saves the document as a new library scenario named `name` (a variant of the open one).
    bool saveAsNewScenario(const QString& name);
    /// File > Save: a new revision of the open scenario, or — the first time a new plan is
    /// saved — asks for its name and saves it as a new scenario. False when cancelled or failed.
    bool save();
    /// Saves the document as a new revision of its library scenario with `note`
    /// (as a new scenario when it is not in the library yet).
    bool saveRevision(const QString& note);
    /// Asks whether to save unsaved changes; false when the user cancelled.
    bool maybeSave();
    /// Opens the comparison of two to four library scenarios (non-modal); null, with the
    /// reason in a message box, when one cannot be read.
    CompareDialog* compareScenarios(const QList<qint64>& ids);
    /// Compares two to four revisions of one library scenario (non-modal), each named
    /// "<name> (revision N)"; null when one cannot be read.
    CompareDialog* compareRevisions(qint64 scenarioId, const QList<int>& revisions);
    /// Compares two to four scenarios as they are (the first is the baseline), each computed on
    /// the pool behind a progress dialog with Cancel; null when cancelled.
    CompareDialog* comparePlans(std::vector<Scenario> scenarios);
    /// Saves `scenario` (a plan the open one was not changed into) as a new library scenario with
    /// `note` on its first revision, selects it in the library panel; its id, or nullopt with the
    /// reason in a message box.
    std::optional<qint64> saveVariant(const Scenario& scenario, const QString& note);
    /// Saves a copy of a library scenario as a new scenario named "<name> (variant)"; its id.
    std::optional<qint64> duplicateScenario(qint64 id);
    bool renameScenario(qint64 id, const QString& name);
    bool setScenarioTags(qint64 id, const QStringList& tags);
    /// Deletes a library scenario and its revisions; asks first when `ask`. The open document
    /// stays open (unsaved) if it was that scenario.
    bool deleteScenario(qint64 id, bool ask = true);
    /// Library ids of recently opened scenarios, newest first (kept in QSettings).
    QList<qint64> recentScenarios() const;
    /// File > Import Scenario JSON: asks for a file, checks it and adds it to the library.
    void importJson();
    /// File > Import Cluster…: the Import Cluster dialog (window-modal); on Import, the imported
    /// scenario is saved to the library as a new scenario and opened.
    void importCluster();
    /// The Import Cluster dialog while it is open, else null.
    class ImportClusterDialog* importClusterDialog() const;

    /// A save refused because a teammate saved first (`why`: who saved which revision when):
    /// asks whether to compare the two, save the edits as a new scenario, or save them on top of
    /// the latest revision after all; the edits stay open (and in the autosaved draft) whatever the
    /// answer. True when they were saved.
    bool resolveConflict(const QString& note, const QString& why);

    /// Shows the welcome panel over the window (first start, Help > Welcome), replacing the one
    /// shown before (the library may have changed since): the library's first six scenarios, a
    /// blank plan, an import, and the user guide through `showGuide`.
    class WelcomePanel* showWelcome(const std::function<void()>& showGuide);

private:
    /// Selects the open scenario's row in the library panel (none for a plan not saved yet).
    void highlightOpen();
    /// Whether the library takes saves; for a viewer's team library, says why not.
    bool writable();
    CompareDialog* compareLibrary(const QList<std::pair<qint64, std::optional<int>>>& refs);
    void rememberRecent(qint64 id);
    void askRename(qint64 id);
    void askTags(qint64 id);

    Workbench& mWorkbench;
    LibraryPanel* mPanel;
    QWidget* mWindow;
    QPointer<class WelcomePanel> mWelcome;
    QPointer<class ImportClusterDialog> mImportCluster;
};

} // namespace gp::ui
