// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// A save that lost the race to a teammate's (issue 20: no lost work between teammates).
#include "document/document.h"
#include "document/librarygateway.h"
#include "librarycontroller.h"
#include "librarypanel.h"
#include "ui/results/comparedialog.h"
#include "ui/workbench.h"

#include <QMessageBox>
#include <QPushButton>

namespace gp::ui {

bool LibraryController::resolveConflict(const QString& note, const QString& why)
{
    document::Document* doc = mWorkbench.document();
    if (!doc || !doc->libraryId())
        return false;
    const qint64 id = *doc->libraryId();
    QMessageBox box(QMessageBox::Warning, tr("Not saved: a teammate saved first"),
                    tr("<p><b>%1.</b></p><p>Your edits are not lost: they stay open here and in the autosaved "
                       "draft. Compare them with the latest revision, save them as a new scenario, or save them on "
                       "top of the latest revision.</p>")
                        .arg(why.toHtmlEscaped()),
                    QMessageBox::Cancel, mWindow);
    box.setObjectName("saveConflictBox");
    QPushButton* compare = box.addButton(tr("Compare…"), QMessageBox::ActionRole);
    compare->setObjectName("conflictCompare");
    QPushButton* asNew = box.addButton(tr("Save as New Scenario"), QMessageBox::ActionRole);
    asNew->setObjectName("conflictSaveAsNew");
    QPushButton* onTop = box.addButton(tr("Save on Top"), QMessageBox::AcceptRole);
    onTop->setObjectName("conflictSaveOnTop");
    box.exec();
    const Scenario mine = doc->scenario();
    if (box.clickedButton() == compare) {
        io::ScenarioReadResult latest = document::loadFromLibrary(mWorkbench.library(), id, mWorkbench.catalog());
        if (!latest.ok()) {
            QMessageBox::warning(mWindow, tr("Cannot compare"), issuesText(latest.issues));
            return false;
        }
        const auto summary = mWorkbench.library().scenario(id);
        latest.value->name += tr(" (revision %1 by %2)")
                                  .arg(summary ? summary->latest.number : 0)
                                  .arg(summary ? summary->latest.author : tr("a teammate"))
                                  .toStdString();
        Scenario edits = mine;
        edits.name += tr(" (your edits)").toStdString();
        comparePlans({std::move(*latest.value), std::move(edits)});
        return false; // saving stays the user's next step, with the comparison in view
    }
    if (box.clickedButton() == asNew)
        return saveAsNewScenario(QString::fromStdString(mine.name) + tr(" (my edits)"));
    if (box.clickedButton() != onTop)
        return false;
    // On top: based on the latest revision now, so a save that lands in between is a conflict again.
    const auto summary = mWorkbench.library().scenario(id);
    if (!summary) {
        QMessageBox::critical(mWindow, tr("Cannot save"), issuesText(summary.issues));
        return false;
    }
    auto rev =
        document::saveRevision(mWorkbench.library(), id, mine, mWorkbench.catalog(), note, summary->latest.number);
    if (!rev && store::ScenarioLibrary::isConflict(rev.issues))
        return resolveConflict(note, QString::fromStdString(rev.errorText()));
    if (!rev) {
        QMessageBox::critical(mWindow, tr("Cannot save"), issuesText(rev.issues));
        return false;
    }
    doc->markSaved(id, *rev);
    mPanel->reload(mWorkbench.library());
    Q_EMIT mWorkbench.message(
        tr("Saved '%1' on top of the latest revision as revision %2").arg(QString::fromStdString(mine.name)).arg(*rev),
        8000);
    return true;
}

} // namespace gp::ui
