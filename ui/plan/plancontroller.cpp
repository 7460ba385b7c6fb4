// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "plancontroller.h"

#include "optimizedialog.h"
#include "ui/canvas/canvasscene.h"
#include "ui/figures/reportwriter.h"
#include "ui/library/librarycontroller.h"
#include "ui/progress.h"
#include "ui/results/comparedialog.h"
#include "ui/workbench.h"

#include "document/commands.h"
#include "document/document.h"

#include <QAction>
#include <QApplication>
#include <QFileDialog>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>

namespace gp::ui {

PlanController::PlanController(Workbench& workbench, CanvasScene* scene, LibraryController* files, QWidget* window)
    : QObject(window), mWorkbench(workbench), mScene(scene), mFiles(files), mWindow(window)
{
    // Another plan opened: a search of the last one no longer applies.
    connect(&mWorkbench, &Workbench::documentReplaced, this, [this] {
        if (mDialog)
            mDialog->close();
    });
}

void PlanController::addPlanActions(QMenu* plan)
{
    QAction* optimize = plan->addAction(tr("&Optimize…"), this, &PlanController::showOptimize);
    optimize->setShortcut(QKeySequence(tr("Ctrl+Shift+O")));
    optimize->setStatusTip(tr("Search sharing settings, cluster size and — where you allow it — jobs' parallelism, "
                              "batch or precision for the cheapest or fullest plan within every SLA and the headroom"));
}

OptimizeDialog* PlanController::showOptimize()
{
    document::Document* doc = mWorkbench.document();
    if (!doc)
        return nullptr;
    if (mDialog)
        mDialog->close();
    auto* dialog = new OptimizeDialog(mWorkbench.catalog(), doc->scenario(), mWindow);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    mDialog = dialog;
    connect(dialog, &OptimizeDialog::previewChanged, this, [this](const Scenario* plan) {
        if (mWorkbench.document())
            mScene->previewPlan(mWorkbench.document()->scenario(), searchedIsOpen() ? plan : nullptr);
    });
    connect(dialog, &OptimizeDialog::applyRequested, this, [this, dialog](const Scenario& plan, const QString& what) {
        if (applyPlan(plan, what))
            dialog->close();
    });
    connect(dialog, &OptimizeDialog::saveVariantRequested, this,
            [this](const Scenario& plan, const QString& note) { mFiles->saveVariant(plan, note); });
    connect(dialog, &OptimizeDialog::compareRequested, this, &PlanController::compareWithCurrent);
    connect(dialog, &OptimizeDialog::reportRequested, this, [this, dialog](const Scenario& plan) {
        const QString pdf = QFileDialog::getSaveFileName(dialog, tr("Report on the Recommended Plan"),
                                                         tr("recommended-plan.pdf"), tr("PDF (*.pdf)"));
        if (!pdf.isEmpty())
            writeRecommendationReport(plan, pdf);
    });
    dialog->show();
    return dialog;
}

OptimizeDialog* PlanController::optimizeDialog() const { return mDialog; }

bool PlanController::searchedIsOpen() const
{
    return mDialog && mWorkbench.document() && mWorkbench.document()->scenario() == mDialog->searched();
}

bool PlanController::applyPlan(const Scenario& plan, const QString& changes)
{
    if (!mWorkbench.editable())
        return false;
    if (!searchedIsOpen()) {
        QMessageBox::warning(mDialog ? static_cast<QWidget*>(mDialog) : mWindow, tr("Cannot apply the plan"),
                             tr("The plan was edited since the search; optimize again to apply a plan to it."));
        return false;
    }
    document::Document* doc = mWorkbench.document();
    mScene->previewPlan(doc->scenario(), nullptr);
    const Scenario& now = doc->scenario();
    Scenario target = plan;
    target.name = now.name; // the plan replaces this one's settings, not its name
    if (!mWorkbench.push(document::changeScenario(now, mWorkbench.catalog(), target, "Apply optimized plan"),
                         tr("Cannot apply the plan"), mDialog))
        return false;
    Q_EMIT mWorkbench.message(tr("Applied the optimized plan (%1); Undo restores the plan as drawn.").arg(changes),
                              10000);
    return true;
}

CompareDialog* PlanController::compareWithCurrent(const Scenario& plan)
{
    const document::Document* doc = mWorkbench.document();
    if (!doc)
        return nullptr;
    Scenario current = doc->scenario();
    current.name += tr(" (current)").toStdString();
    return mFiles->comparePlans({current, plan});
}

bool PlanController::writeRecommendationReport(const Scenario& plan, const QString& pdf)
{
    const document::Document* doc = mWorkbench.document();
    if (!doc)
        return false;
    using Pair = std::pair<sim::PlanResults, sim::PlanResults>;
    const std::optional<Pair> results =
        runWithProgress<Pair>(mWindow, tr("Computing the plans for the report…"),
                              [current = doc->scenario(), plan,
                               catalog = &mWorkbench.catalog()](const std::atomic<bool>& stop) -> std::optional<Pair> {
                                  auto now = sim::computePlanResults(current, *catalog, &stop);
                                  auto then = now ? sim::computePlanResults(plan, *catalog, &stop) : std::nullopt;
                                  if (!then)
                                      return std::nullopt;
                                  return Pair{std::move(*now), std::move(*then)};
                              });
    if (!results)
        return false;
    QApplication::setOverrideCursor(Qt::WaitCursor);
    const Status written = writeReport(results->second, mWorkbench.catalog(), pdf, &results->first);
    QApplication::restoreOverrideCursor();
    if (!written) {
        QMessageBox::critical(mWindow, tr("Cannot write the report"), issuesText(written.issues));
        return false;
    }
    Q_EMIT mWorkbench.message(tr("Wrote the report on the recommended plan to %1").arg(pdf), 8000);
    return true;
}

} // namespace gp::ui
