// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "librarycontroller.h"

#include "importclusterdialog.h"

#include "document/commands.h"
#include "document/document.h"
#include "document/librarygateway.h"
#include "io/scenarioreader.h"
#include "librarypanel.h"
#include "revisionsdialog.h"
#include "sim/planresults.h"
#include "ui/progress.h"
#include "ui/results/comparedialog.h"
#include "ui/welcomepanel.h"
#include "ui/workbench.h"

#include <QAction>
#include <QFileDialog>
#include <QInputDialog>
#include <QMenu>
#include <QMessageBox>
#include <QSettings>

namespace gp::ui {

LibraryController::LibraryController(Workbench& workbench, LibraryPanel* panel, QWidget* window)
    : QObject(window), mWorkbench(workbench), mPanel(panel), mWindow(window)
{
    connect(mPanel, &LibraryPanel::openRequested, this, [this](qint64 id) {
        if (maybeSave())
            openFromLibrary(id);
    });
    connect(mPanel, &LibraryPanel::compareRequested, this, &LibraryController::compareScenarios);
    connect(mPanel, &LibraryPanel::duplicateRequested, this, &LibraryController::duplicateScenario);
    connect(mPanel, &LibraryPanel::revisionsRequested, this, &LibraryController::showRevisions);
    connect(mPanel, &LibraryPanel::deleteRequested, this, [this](qint64 id) { deleteScenario(id); });
    connect(mPanel, &LibraryPanel::renameRequested, this, &LibraryController::askRename);
    connect(mPanel, &LibraryPanel::tagsRequested, this, &LibraryController::askTags);
    // The library's highlight follows the open scenario (issue 36), none for one not saved yet.
    connect(&mWorkbench, &Workbench::documentReplaced, this, &LibraryController::highlightOpen);
    mPanel->reload(mWorkbench.library());
}

void LibraryController::highlightOpen()
{
    const document::Document* doc = mWorkbench.document();
    mPanel->select(doc && doc->libraryId() ? QList<qint64>{*doc->libraryId()} : QList<qint64>{});
}

QList<QAction*> LibraryController::addFileActions(QMenu* file)
{
    QAction* importAct = file->addAction(tr("&Import Scenario JSON…"), this, &LibraryController::importJson);
    importAct->setShortcut(QKeySequence::Open);
    file->addAction(tr("Import &Cluster…"), this, &LibraryController::importCluster);
    QAction* newAct = file->addAction(tr("&New Scenario"), this, [this] { newScenario(); });
    newAct->setShortcut(QKeySequence::New);
    QAction* saveAct = file->addAction(tr("&Save to Library"), this, &LibraryController::save);
    saveAct->setShortcut(QKeySequence::Save);
    file->addAction(tr("Save as &New Scenario…"), this,
                    [this] {
                        bool ok = false;
                        const document::Document* doc = mWorkbench.document();
                        const QString name = QInputDialog::getText(
                            mWindow, tr("Save as New Scenario"), tr("Name of the new scenario:"), QLineEdit::Normal,
                            doc ? QString::fromStdString(doc->scenario().name) : QString(), &ok);
                        if (ok)
                            saveAsNewScenario(name);
                    })
        ->setShortcuts({QKeySequence(tr("Ctrl+Shift+S"))}); // QKeySequence::SaveAs is empty on some desktops
    file->addAction(tr("Save Re&vision with Note…"), this,
                    [this] {
                        bool ok = false;
                        const QString note =
                            QInputDialog::getText(mWindow, tr("Save Revision"), tr("What changed in this revision?"),
                                                  QLineEdit::Normal, QString(), &ok);
                        if (ok)
                            saveRevision(note.trimmed().isEmpty() ? tr("Saved from the workbench") : note.trimmed());
                    })
        ->setShortcut(QKeySequence(tr("Ctrl+Alt+S")));
    return {newAct, importAct, saveAct};
}

void LibraryController::addRecentMenu(QMenu* file)
{
    QMenu* recent = file->addMenu(tr("Open &Recent"));
    connect(recent, &QMenu::aboutToShow, this, [this, recent] {
        recent->clear();
        for (qint64 id : recentScenarios())
            if (auto s = mWorkbench.library().scenario(id))
                recent->addAction(s->name, this, [this, id] {
                    if (maybeSave())
                        openFromLibrary(id);
                });
        recent->setEnabled(!recent->isEmpty());
    });
}

void LibraryController::askRename(qint64 id)
{
    const auto summary = mWorkbench.library().scenario(id);
    bool ok = false;
    const QString name = QInputDialog::getText(mWindow, tr("Rename Scenario"), tr("New name:"), QLineEdit::Normal,
                                               summary ? summary->name : QString(), &ok);
    if (ok)
        renameScenario(id, name);
}

void LibraryController::askTags(qint64 id)
{
    const auto summary = mWorkbench.library().scenario(id);
    bool ok = false;
    const QString tags = QInputDialog::getText(mWindow, tr("Scenario Tags"), tr("Tags, separated by commas:"),
                                               QLineEdit::Normal, summary ? summary->tags.join(", ") : QString(), &ok);
    if (!ok)
        return;
    QStringList list;
    for (const QString& t : tags.split(',', Qt::SkipEmptyParts))
        if (!t.trimmed().isEmpty())
            list << t.trimmed();
    setScenarioTags(id, list);
}

void LibraryController::rememberRecent(qint64 id)
{
    QList<qint64> ids = recentScenarios();
    ids.removeAll(id);
    ids.prepend(id);
    QVariantList stored;
    for (qint64 i : ids.mid(0, 8))
        stored << i;
    QSettings().setValue("recent/scenarios", stored);
}

QList<qint64> LibraryController::recentScenarios() const
{
    QList<qint64> ids;
    for (const QVariant& v : QSettings().value("recent/scenarios").toList())
        ids << v.toLongLong();
    return ids;
}

bool LibraryController::openFromLibrary(qint64 id)
{
    io::ScenarioReadResult r = document::loadFromLibrary(mWorkbench.library(), id, mWorkbench.catalog());
    if (!r.ok()) {
        QMessageBox::warning(
            mWindow, tr("Cannot open scenario"),
            tr("Scenario %1 of the library cannot be opened:\n\n%2").arg(id).arg(issuesText(r.issues)));
        return false;
    }
    auto doc = std::make_unique<document::Document>(std::move(*r.value));
    auto revs = mWorkbench.library().revisions(id);
    doc->markSaved(id, revs && !revs->empty() ? revs->back().number : 1);
    mWorkbench.setDocument(std::move(doc));
    rememberRecent(id);
    return true;
}

void LibraryController::showRevisions(qint64 id)
{
    auto revisions = mWorkbench.library().revisions(id);
    const auto summary = mWorkbench.library().scenario(id);
    if (!revisions || !summary)
        return;
    RevisionsDialog dialog(summary->name, std::move(*revisions), mWindow);
    connect(&dialog, &RevisionsDialog::compareRequested, this, [this, id](int revision, int latest) {
        compareRevisions(id, {revision, latest});
    });
    if (dialog.exec() == QDialog::Accepted)
        if (const std::optional<int> revision = dialog.chosen())
            openRevision(id, *revision);
}

bool LibraryController::openRevision(qint64 id, int revision)
{
    if (!maybeSave())
        return false;
    io::ScenarioReadResult r = document::loadFromLibrary(mWorkbench.library(), id, mWorkbench.catalog(), revision);
    if (!r.ok()) {
        QMessageBox::warning(mWindow, tr("Cannot open revision"),
                             tr("Revision %1 of library scenario %2 cannot be opened:\n\n%3")
                                 .arg(revision)
                                 .arg(id)
                                 .arg(issuesText(r.issues)));
        return false;
    }
    const auto revisions = mWorkbench.library().revisions(id);
    auto doc = std::make_unique<document::Document>(std::move(*r.value));
    doc->setReadOnly(true, tr("revision %1 of %2").arg(revision).arg(revisions ? revisions->size() : 0));
    mWorkbench.setDocument(std::move(doc));
    return true;
}

void LibraryController::openFirst()
{
    auto all = mWorkbench.library().list();
    if (all && !all->empty())
        openFromLibrary(all->front().id);
}

bool LibraryController::maybeSave()
{
    document::Document* doc = mWorkbench.document();
    if (!doc || !doc->isModified())
        return true;
    const auto answer = QMessageBox::question(mWindow, tr("Unsaved changes"),
                                              tr("Save the changes to '%1' in the library?").arg(doc->displayName()),
                                              QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel);
    if (answer == QMessageBox::Save)
        return save();
    return answer == QMessageBox::Discard;
}

bool LibraryController::writable()
{
    if (mWorkbench.library().canWrite())
        return true;
    Q_EMIT mWorkbench.message(tr("Not saved: your role %1 may only read this team library (a planner role can save)")
                                  .arg(mWorkbench.library().author()),
                              8000);
    return false;
}

bool LibraryController::save()
{
    if (!writable())
        return false;
    document::Document* doc = mWorkbench.document();
    if (!doc)
        return false;
    if (doc->libraryId() || doc->isReadOnly())
        return saveRevision(tr("Saved from the workbench"));
    // The first save of a new plan: it gets a name of its own, not "Untitled cluster".
    bool ok = false;
    const QString name = QInputDialog::getText(mWindow, tr("Save to Library"), tr("Name of the new scenario:"),
                                               QLineEdit::Normal, QString::fromStdString(doc->scenario().name), &ok);
    return ok && saveAsNewScenario(name);
}

bool LibraryController::saveRevision(const QString& note)
{
    if (!writable())
        return false;
    document::Document* doc = mWorkbench.document();
    if (!doc)
        return false;
    const Scenario& s = doc->scenario();
    const auto id = doc->libraryId();
    if (!id || doc->isReadOnly()) // a past revision is saved as a new scenario
        return saveAsNewScenario(QString::fromStdString(s.name) +
                                 (doc->isReadOnly() ? tr(" (from a revision)") : QString()));
    // The save names the revision these edits started from: if a teammate saved since, it is
    // refused as a conflict and nothing of it is written.
    auto rev = document::saveRevision(mWorkbench.library(), *id, s, mWorkbench.catalog(), note, doc->revision());
    if (!rev && store::ScenarioLibrary::isConflict(rev.issues))
        return resolveConflict(note, QString::fromStdString(rev.errorText()));
    if (!rev) {
        QMessageBox::critical(mWindow, tr("Cannot save"), issuesText(rev.issues));
        return false;
    }
    doc->markSaved(*id, *rev);
    mPanel->reload(mWorkbench.library());
    Q_EMIT mWorkbench.message(
        tr("Saved '%1' to the library as revision %2").arg(QString::fromStdString(s.name)).arg(*rev), 5000);
    return true;
}

bool LibraryController::saveAsNewScenario(const QString& name)
{
    if (!writable())
        return false;
    document::Document* doc = mWorkbench.document();
    if (!doc || name.trimmed().isEmpty())
        return false;
    const bool renamed = doc->scenario().name != name.trimmed().toStdString();
    if (renamed) // the name is part of the document: renaming is an undoable edit like any other
        doc->push(document::renameScenario(doc->scenario(), name.trimmed().toStdString()));
    const Scenario& s = doc->scenario();
    const QString note =
        doc->libraryId() ? tr("Variant of library scenario %1").arg(*doc->libraryId()) : tr("Saved from the workbench");
    auto newId = document::saveAsNew(mWorkbench.library(), s, mWorkbench.catalog(), note);
    if (!newId) {
        QMessageBox::critical(mWindow, tr("Cannot save"), issuesText(newId.issues));
        return false;
    }
    doc->markSaved(*newId, 1);
    if (doc->isReadOnly()) // a revision saved as new: editable from now on
        doc->setReadOnly(false);
    rememberRecent(*newId);
    mPanel->reload(mWorkbench.library());
    highlightOpen();
    Q_EMIT mWorkbench.message(tr("Saved '%1' as a new library scenario").arg(QString::fromStdString(s.name)), 5000);
    return true;
}

bool LibraryController::newScenario(bool ask)
{
    if (ask && !maybeSave())
        return false;
    Scenario blank;
    blank.name = tr("Untitled cluster").toStdString();
    if (!mWorkbench.catalog().pricePresets.empty())
        blank.pricing.preset = mWorkbench.catalog().pricePresets.front().id;
    mWorkbench.setDocument(std::make_unique<document::Document>(std::move(blank)));
    return true;
}

void LibraryController::importJson()
{
    if (!maybeSave())
        return;
    const QString file = QFileDialog::getOpenFileName(mWindow, tr("Import Scenario"), {}, tr("Scenario JSON (*.json)"));
    if (file.isEmpty())
        return;
    io::ScenarioReadResult r = io::readScenarioFile(file, mWorkbench.catalog());
    if (!r.ok()) {
        QMessageBox::warning(mWindow, tr("Cannot import"),
                             tr("%1 is not a valid scenario:\n\n%2").arg(file, issuesText(r.issues)));
        return;
    }
    auto newId =
        document::saveAsNew(mWorkbench.library(), *r.value, mWorkbench.catalog(), tr("Imported from %1").arg(file));
    if (!newId) {
        QMessageBox::critical(mWindow, tr("Cannot import"), issuesText(newId.issues));
        return;
    }
    mPanel->reload(mWorkbench.library());
    openFromLibrary(*newId);
}

ImportClusterDialog* LibraryController::importClusterDialog() const { return mImportCluster; }

void LibraryController::importCluster()
{
    if (!maybeSave())
        return;
    if (mImportCluster) {
        mImportCluster->raise();
        return;
    }
    auto* dialog = new ImportClusterDialog(mWorkbench.catalog(), mWindow);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    mImportCluster = dialog;
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        if (!dialog->scenario())
            return;
        auto newId = document::saveAsNew(mWorkbench.library(), *dialog->scenario(), mWorkbench.catalog(),
                                         tr("Imported from %1").arg(dialog->sourceDescription()));
        if (!newId) {
            QMessageBox::critical(mWindow, tr("Cannot import"), issuesText(newId.issues));
            return;
        }
        mPanel->reload(mWorkbench.library());
        openFromLibrary(*newId);
    });
    dialog->open();
}

CompareDialog* LibraryController::compareScenarios(const QList<qint64>& ids)
{
    QList<std::pair<qint64, std::optional<int>>> refs;
    for (qint64 id : ids)
        refs.push_back({id, std::nullopt});
    return compareLibrary(refs);
}

CompareDialog* LibraryController::compareRevisions(qint64 scenarioId, const QList<int>& revisions)
{
    QList<std::pair<qint64, std::optional<int>>> refs;
    for (int r : revisions)
        refs.push_back({scenarioId, r});
    return compareLibrary(refs);
}

CompareDialog* LibraryController::compareLibrary(const QList<std::pair<qint64, std::optional<int>>>& refs)
{
    if (refs.size() < 2 || refs.size() > 4)
        return nullptr;
    std::vector<Scenario> scenarios;
    for (const auto& [id, revision] : refs) {
        io::ScenarioReadResult r = document::loadFromLibrary(mWorkbench.library(), id, mWorkbench.catalog(), revision);
        if (!r.ok()) {
            QMessageBox::warning(
                mWindow, tr("Cannot compare"),
                tr("Scenario %1 of the library cannot be read:\n\n%2").arg(id).arg(issuesText(r.issues)));
            return nullptr;
        }
        if (revision)
            r.value->name += tr(" (revision %1)").arg(*revision).toStdString();
        scenarios.push_back(std::move(*r.value));
    }
    return comparePlans(std::move(scenarios));
}

CompareDialog* LibraryController::comparePlans(std::vector<Scenario> scenarios)
{
    if (scenarios.size() < 2 || scenarios.size() > 4)
        return nullptr;
    using Plans = std::vector<std::shared_ptr<const sim::PlanResults>>;
    const std::optional<Plans> plans =
        runWithProgress<Plans>(mWindow, tr("Computing the plans to compare…"),
                               [scenarios = std::move(scenarios), catalog = &mWorkbench.catalog()](
                                   const std::atomic<bool>& stop) -> std::optional<Plans> {
                                   Plans out;
                                   for (const Scenario& s : scenarios) {
                                       std::optional<sim::PlanResults> r = sim::computePlanResults(s, *catalog, &stop);
                                       if (!r)
                                           return std::nullopt;
                                       out.push_back(std::make_shared<const sim::PlanResults>(std::move(*r)));
                                   }
                                   return out;
                               });
    if (!plans)
        return nullptr;
    auto* dialog = new CompareDialog(mWorkbench.catalog(), *plans, mWindow);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->show();
    return dialog;
}

std::optional<qint64> LibraryController::duplicateScenario(qint64 id)
{
    io::ScenarioReadResult r = document::loadFromLibrary(mWorkbench.library(), id, mWorkbench.catalog());
    if (!r.ok()) {
        QMessageBox::warning(mWindow, tr("Cannot duplicate"), issuesText(r.issues));
        return std::nullopt;
    }
    r.value->name += tr(" (variant)").toStdString();
    return saveVariant(*r.value, tr("Variant of library scenario %1").arg(id));
}

std::optional<qint64> LibraryController::saveVariant(const Scenario& scenario, const QString& note)
{
    auto newId = document::saveAsNew(mWorkbench.library(), scenario, mWorkbench.catalog(), note);
    if (!newId) {
        QMessageBox::critical(mWindow, tr("Cannot save the variant"), issuesText(newId.issues));
        return std::nullopt;
    }
    mPanel->reload(mWorkbench.library());
    mPanel->select({*newId});
    Q_EMIT mWorkbench.message(
        tr("Saved '%1' to the library as a new scenario").arg(QString::fromStdString(scenario.name)), 5000);
    return newId.value;
}

bool LibraryController::renameScenario(qint64 id, const QString& name)
{
    if (name.trimmed().isEmpty())
        return false;
    if (Status renamed = mWorkbench.library().rename(id, name.trimmed()); !renamed) {
        QMessageBox::critical(mWindow, tr("Cannot rename"), issuesText(renamed.issues));
        return false;
    }
    // The open scenario takes the name too (the title, the slides); it stays as saved, since
    // the library's name is what reopening it gives.
    document::Document* doc = mWorkbench.document();
    if (doc && !doc->isReadOnly() && doc->libraryId() == id && doc->scenario().name != name.trimmed().toStdString()) {
        const bool wasClean = !doc->isModified();
        doc->push(document::renameScenario(doc->scenario(), name.trimmed().toStdString()));
        if (wasClean && doc->revision())
            doc->markSaved(id, *doc->revision());
    }
    mPanel->reload(mWorkbench.library());
    return true;
}

bool LibraryController::setScenarioTags(qint64 id, const QStringList& tags)
{
    if (Status tagged = mWorkbench.library().setTags(id, tags); !tagged) {
        QMessageBox::critical(mWindow, tr("Cannot set the tags"), issuesText(tagged.issues));
        return false;
    }
    mPanel->reload(mWorkbench.library());
    return true;
}

bool LibraryController::deleteScenario(qint64 id, bool ask)
{
    const auto summary = mWorkbench.library().scenario(id);
    if (!summary)
        return false;
    if (ask && QMessageBox::question(mWindow, tr("Delete scenario"),
                                     tr("Delete '%1' and its %n revision(s) from the library? This cannot be undone.",
                                        nullptr, summary->revisionCount)
                                         .arg(summary->name),
                                     QMessageBox::Yes | QMessageBox::No, QMessageBox::No) != QMessageBox::Yes)
        return false;
    if (Status deleted = mWorkbench.library().deleteScenario(id); !deleted) {
        QMessageBox::critical(mWindow, tr("Cannot delete"), issuesText(deleted.issues));
        return false;
    }
    if (document::Document* doc = mWorkbench.document(); doc && doc->libraryId() == id)
        doc->forgetLibraryId(); // still open, now as an unsaved scenario
    mPanel->reload(mWorkbench.library());
    return true;
}

WelcomePanel* LibraryController::showWelcome(const std::function<void()>& showGuide)
{
    delete mWelcome;
    std::vector<std::pair<qint64, QString>> offered;
    if (auto all = mWorkbench.library().list())
        for (const auto& entry : *all)
            if (offered.size() < 6)
                offered.emplace_back(entry.id, entry.name);
    mWelcome = new WelcomePanel(offered, mWindow);
    connect(mWelcome, &WelcomePanel::scenarioChosen, this, &LibraryController::openFromLibrary);
    connect(mWelcome, &WelcomePanel::blankChosen, this, [this] { newScenario(); });
    connect(mWelcome, &WelcomePanel::importChosen, this, &LibraryController::importJson);
    connect(mWelcome, &WelcomePanel::guideChosen, this, showGuide);
    mWelcome->show();
    mWelcome->raise();
    mWelcome->setFocus();
    return mWelcome;
}

} // namespace gp::ui
