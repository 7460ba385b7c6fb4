// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// The File side of the main window: the library (open, save as new, save a revision with a
// note, recent scenarios), new scenarios, and JSON import and export.
#include "mainwindow.h"
#include "textformat.h"

#include "calc/clusterconfig.h"
#include "calc/evaluate.h"
#include "comparedialog.h"
#include "document/commands.h"
#include "document/document.h"
#include "document/librarygateway.h"
#include "evaluationrunner.h"
#include "io/clusterconfigwriter.h"
#include "io/scenarioreader.h"
#include "io/scenariowriter.h"
#include "librarypanel.h"
#include "presentation.h"
#include "progress.h"

#include <QApplication>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QHeaderView>
#include <QInputDialog>
#include <QMessageBox>
#include <QPushButton>
#include <QSaveFile>
#include <QSettings>
#include <QStatusBar>
#include <QTableWidget>
#include <QUndoStack>
#include <QVBoxLayout>

namespace gp::ui {

void MainWindow::rememberRecent(qint64 id)
{
    QList<qint64> ids = recentScenarios();
    ids.removeAll(id);
    ids.prepend(id);
    QVariantList stored;
    for (qint64 i : ids.mid(0, 8))
        stored << i;
    QSettings().setValue("recent/scenarios", stored);
}

QList<qint64> MainWindow::recentScenarios() const
{
    QList<qint64> ids;
    for (const QVariant& v : QSettings().value("recent/scenarios").toList())
        ids << v.toLongLong();
    return ids;
}

bool MainWindow::openFromLibrary(qint64 id)
{
    io::ScenarioReadResult r = document::loadFromLibrary(*mLibrary, id, mCatalog);
    if (!r.ok()) {
        QMessageBox::warning(
            this, tr("Cannot open scenario"),
            tr("Scenario %1 of the library cannot be opened:\n\n%2").arg(id).arg(issuesText(r.issues)));
        return false;
    }
    auto doc = std::make_unique<document::Document>(std::move(*r.scenario));
    auto revs = mLibrary->revisions(id);
    doc->markSaved(id, revs && !revs->empty() ? revs->back().number : 1);
    setDocument(std::move(doc));
    rememberRecent(id);
    return true;
}

void MainWindow::showRevisions(qint64 id)
{
    const auto revisions = mLibrary->revisions(id);
    const auto summary = mLibrary->scenario(id);
    if (!revisions || !summary)
        return;
    QDialog dialog(this);
    dialog.setWindowTitle(tr("Revisions of %1").arg(summary->name));
    auto* table = new QTableWidget(static_cast<int>(revisions->size()), 4, &dialog);
    table->setHorizontalHeaderLabels({tr("Revision"), tr("Saved"), tr("Note"), tr("$/month")});
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->setSelectionMode(QAbstractItemView::SingleSelection);
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->verticalHeader()->hide();
    table->horizontalHeader()->setSectionResizeMode(2, QHeaderView::Stretch);
    for (int r = 0; r < static_cast<int>(revisions->size()); ++r) {
        const store::RevisionInfo& rev = (*revisions)[static_cast<std::size_t>(r)];
        const auto cost = rev.kpis.find("cost_per_month_usd");
        table->setItem(r, 0, new QTableWidgetItem(QString::number(rev.number)));
        table->setItem(r, 1, new QTableWidgetItem(rev.createdAt.toLocalTime().toString("yyyy-MM-dd HH:mm")));
        table->setItem(r, 2, new QTableWidgetItem(rev.note));
        table->setItem(r, 3, new QTableWidgetItem(cost == rev.kpis.end() ? QString() : text::grouped(cost->second)));
    }
    table->selectRow(table->rowCount() - 1);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Open | QDialogButtonBox::Close, &dialog);
    connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    QPushButton* compare = buttons->addButton(tr("Compare with Latest"), QDialogButtonBox::ActionRole);
    compare->setEnabled(revisions->size() > 1);
    connect(compare, &QPushButton::clicked, &dialog, [&] {
        const int row = table->currentRow();
        const int latest = revisions->back().number;
        const int chosen = row >= 0 ? (*revisions)[static_cast<std::size_t>(row)].number : latest;
        if (chosen != latest) {
            dialog.reject();
            compareRevisions(id, {chosen, latest});
        }
    });
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    connect(table, &QTableWidget::cellDoubleClicked, &dialog, &QDialog::accept);
    auto* layout = new QVBoxLayout(&dialog);
    layout->addWidget(table);
    layout->addWidget(buttons);
    dialog.resize(640, 360);
    if (dialog.exec() == QDialog::Accepted && table->currentRow() >= 0)
        openRevision(id, (*revisions)[static_cast<std::size_t>(table->currentRow())].number);
}

bool MainWindow::openRevision(qint64 id, int revision)
{
    if (!maybeSave())
        return false;
    io::ScenarioReadResult r = document::loadFromLibrary(*mLibrary, id, mCatalog, revision);
    if (!r.ok()) {
        QMessageBox::warning(this, tr("Cannot open revision"),
                             tr("Revision %1 of library scenario %2 cannot be opened:\n\n%3")
                                 .arg(revision)
                                 .arg(id)
                                 .arg(issuesText(r.issues)));
        return false;
    }
    const auto revisions = mLibrary->revisions(id);
    auto doc = std::make_unique<document::Document>(std::move(*r.scenario));
    doc->setReadOnly(true, tr("revision %1 of %2").arg(revision).arg(revisions ? revisions->size() : 0));
    setDocument(std::move(doc));
    return true;
}

void MainWindow::openFirst()
{
    auto all = mLibrary->list();
    if (all && !all->empty())
        openFromLibrary(all->front().id);
}

bool MainWindow::maybeSave()
{
    if (!mDocument || !mDocument->isModified())
        return true;
    const auto answer = QMessageBox::question(
        this, tr("Unsaved changes"), tr("Save the changes to '%1' in the library?").arg(mDocument->displayName()),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel);
    if (answer == QMessageBox::Save)
        return saveToLibrary();
    return answer == QMessageBox::Discard;
}

bool MainWindow::saveRevision(const QString& note)
{
    if (!mDocument)
        return false;
    const Scenario& s = mDocument->scenario();
    const auto id = mDocument->libraryId();
    if (!id || mDocument->isReadOnly()) // a past revision is saved as a new scenario
        return saveAsNewScenario(QString::fromStdString(s.name) +
                                 (mDocument->isReadOnly() ? tr(" (from a revision)") : QString()));
    auto rev = mLibrary->addRevision(*id, io::writeScenario(s), note, document::kpisOf(s, mCatalog));
    if (!rev) {
        QMessageBox::critical(this, tr("Cannot save"), mLibrary->lastError());
        return false;
    }
    mDocument->markSaved(*id, *rev);
    mLibraryPanel->reload(*mLibrary);
    statusBar()->showMessage(
        tr("Saved '%1' to the library as revision %2").arg(QString::fromStdString(s.name)).arg(*rev), 5000);
    updateTitle();
    return true;
}

bool MainWindow::saveAsNewScenario(const QString& name)
{
    if (!mDocument || name.trimmed().isEmpty())
        return false;
    const bool renamed = mDocument->scenario().name != name.trimmed().toStdString();
    if (renamed) // the name is part of the document: renaming is an undoable edit like any other
        mDocument->push(document::renameScenario(mDocument->scenario(), name.trimmed().toStdString()));
    const Scenario& s = mDocument->scenario();
    const QString note = mDocument->libraryId() ? tr("Variant of library scenario %1").arg(*mDocument->libraryId())
                                                : tr("Saved from the workbench");
    auto newId = document::saveAsNew(*mLibrary, s, mCatalog, note);
    if (!newId) {
        QMessageBox::critical(this, tr("Cannot save"), mLibrary->lastError());
        return false;
    }
    mDocument->markSaved(*newId, 1);
    if (mDocument->isReadOnly()) { // a revision saved as new: editable from now on
        mDocument->setReadOnly(false);
        setEditingEnabled(true);
    }
    rememberRecent(*newId);
    mLibraryPanel->reload(*mLibrary);
    statusBar()->showMessage(tr("Saved '%1' as a new library scenario").arg(QString::fromStdString(s.name)), 5000);
    updateTitle();
    return true;
}

bool MainWindow::newScenario(bool ask)
{
    if (ask && !maybeSave())
        return false;
    Scenario blank;
    blank.name = tr("Untitled cluster").toStdString();
    if (!mCatalog.pricePresets.empty())
        blank.pricing.preset = mCatalog.pricePresets.front().id;
    setDocument(std::make_unique<document::Document>(std::move(blank)));
    return true;
}

void MainWindow::importJson()
{
    if (!maybeSave())
        return;
    const QString file = QFileDialog::getOpenFileName(this, tr("Import Scenario"), {}, tr("Scenario JSON (*.json)"));
    if (file.isEmpty())
        return;
    io::ScenarioReadResult r = io::readScenarioFile(file, mCatalog);
    if (!r.ok()) {
        QMessageBox::warning(this, tr("Cannot import"),
                             tr("%1 is not a valid scenario:\n\n%2").arg(file, issuesText(r.issues)));
        return;
    }
    auto newId = document::saveAsNew(*mLibrary, *r.scenario, mCatalog, tr("Imported from %1").arg(file));
    if (!newId) {
        QMessageBox::critical(this, tr("Cannot import"), mLibrary->lastError());
        return;
    }
    mLibraryPanel->reload(*mLibrary);
    openFromLibrary(*newId);
}

void MainWindow::exportJson()
{
    if (!mDocument)
        return;
    const QString file = QFileDialog::getSaveFileName(this, tr("Export Scenario"),
                                                      QString::fromStdString(mDocument->scenario().name) + ".json",
                                                      tr("Scenario JSON (*.json)"));
    if (file.isEmpty())
        return;
    QSaveFile f(file);
    const QByteArray json = io::writeScenario(mDocument->scenario());
    if (!f.open(QIODevice::WriteOnly) || f.write(json) != json.size() || !f.commit())
        QMessageBox::critical(this, tr("Cannot export"), tr("%1: %2").arg(file, f.errorString()));
}

CompareDialog* MainWindow::compareScenarios(const QList<qint64>& ids)
{
    QList<std::pair<qint64, std::optional<int>>> refs;
    for (qint64 id : ids)
        refs.push_back({id, std::nullopt});
    return compareLibrary(refs);
}

CompareDialog* MainWindow::compareRevisions(qint64 scenarioId, const QList<int>& revisions)
{
    QList<std::pair<qint64, std::optional<int>>> refs;
    for (int r : revisions)
        refs.push_back({scenarioId, r});
    return compareLibrary(refs);
}

CompareDialog* MainWindow::compareLibrary(const QList<std::pair<qint64, std::optional<int>>>& refs)
{
    if (refs.size() < 2 || refs.size() > 4)
        return nullptr;
    std::vector<Scenario> scenarios;
    for (const auto& [id, revision] : refs) {
        io::ScenarioReadResult r = document::loadFromLibrary(*mLibrary, id, mCatalog, revision);
        if (!r.ok()) {
            QMessageBox::warning(
                this, tr("Cannot compare"),
                tr("Scenario %1 of the library cannot be read:\n\n%2").arg(id).arg(issuesText(r.issues)));
            return nullptr;
        }
        if (revision)
            r.scenario->name += tr(" (revision %1)").arg(*revision).toStdString();
        scenarios.push_back(std::move(*r.scenario));
    }
    using Plans = std::vector<std::shared_ptr<const sim::PlanResults>>;
    const std::optional<Plans> plans = runWithProgress<Plans>(
        this, tr("Computing the plans to compare…"),
        [scenarios = std::move(scenarios), catalog = &mCatalog](const std::atomic<bool>& stop) -> std::optional<Plans> {
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
    auto* dialog = new CompareDialog(mCatalog, *plans, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->show();
    return dialog;
}

std::optional<qint64> MainWindow::duplicateScenario(qint64 id)
{
    io::ScenarioReadResult r = document::loadFromLibrary(*mLibrary, id, mCatalog);
    if (!r.ok()) {
        QMessageBox::warning(this, tr("Cannot duplicate"), issuesText(r.issues));
        return std::nullopt;
    }
    r.scenario->name += tr(" (variant)").toStdString();
    auto newId = document::saveAsNew(*mLibrary, *r.scenario, mCatalog, tr("Variant of library scenario %1").arg(id));
    if (!newId) {
        QMessageBox::critical(this, tr("Cannot duplicate"), mLibrary->lastError());
        return std::nullopt;
    }
    mLibraryPanel->reload(*mLibrary);
    mLibraryPanel->select({*newId});
    return newId;
}

bool MainWindow::renameScenario(qint64 id, const QString& name)
{
    if (name.trimmed().isEmpty() || !mLibrary->rename(id, name.trimmed())) {
        if (!name.trimmed().isEmpty())
            QMessageBox::critical(this, tr("Cannot rename"), mLibrary->lastError());
        return false;
    }
    mLibraryPanel->reload(*mLibrary);
    return true;
}

bool MainWindow::setScenarioTags(qint64 id, const QStringList& tags)
{
    if (!mLibrary->setTags(id, tags)) {
        QMessageBox::critical(this, tr("Cannot set the tags"), mLibrary->lastError());
        return false;
    }
    mLibraryPanel->reload(*mLibrary);
    return true;
}

bool MainWindow::deleteScenario(qint64 id, bool ask)
{
    const auto summary = mLibrary->scenario(id);
    if (!summary)
        return false;
    if (ask && QMessageBox::question(this, tr("Delete scenario"),
                                     tr("Delete '%1' and its %n revision(s) from the library? This cannot be undone.",
                                        nullptr, summary->revisionCount)
                                         .arg(summary->name),
                                     QMessageBox::Yes | QMessageBox::No, QMessageBox::No) != QMessageBox::Yes)
        return false;
    if (!mLibrary->deleteScenario(id)) {
        QMessageBox::critical(this, tr("Cannot delete"), mLibrary->lastError());
        return false;
    }
    if (mDocument && mDocument->libraryId() == id)
        mDocument->forgetLibraryId(); // still open, now as an unsaved scenario
    mLibraryPanel->reload(*mLibrary);
    updateTitle();
    return true;
}

} // namespace gp::ui
