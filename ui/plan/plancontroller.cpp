// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "plancontroller.h"

#include "optimizedialog.h"
#include "sizingdialog.h"
#include "ui/actionregistry.h"
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
        if (mSizing)
            mSizing->close();
    });
    QAction* size = mWorkbench.actions().add(ActionId::SizeCluster, tr("&Size Cluster…"), {}, false);
    size->setStatusTip(tr("The fewest nodes of the templates you choose that host every job within its SLA and keep "
                          "the headroom free, the cheapest, and with growth the nodes month by month"));
    connect(size, &QAction::triggered, this, &PlanController::showSizing);
}

void PlanController::addPlanActions(QMenu* plan)
{
    QAction* optimize = plan->addAction(tr("&Optimize…"), this, &PlanController::showOptimize);
    optimize->setShortcut(QKeySequence(tr("Ctrl+Shift+O")));
    optimize->setStatusTip(tr("Search sharing settings, cluster size and — where you allow it — jobs' parallelism, "
                              "batch or precision for the cheapest or fullest plan within every SLA and the headroom"));
    plan->addAction(mWorkbench.actions().action(ActionId::SizeCluster));
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

SizingDialog* PlanController::showSizing()
{
    document::Document* doc = mWorkbench.document();
    if (!doc)
        return nullptr;
    if (mSizing)
        mSizing->close();
    auto* dialog = new SizingDialog(mWorkbench.catalog(), doc->scenario(), mWindow);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    mSizing = dialog;
    connect(dialog, &SizingDialog::applyRequested, this, [this, dialog](const Scenario& sized, const QString& what) {
        if (applySizedCluster(sized, what))
            dialog->close();
    });
    connect(dialog, &SizingDialog::saveVariantRequested, this,
            [this](const Scenario& sized, const QString& note) { mFiles->saveVariant(sized, note); });
    dialog->show();
    return dialog;
}

SizingDialog* PlanController::sizingDialog() const { return mSizing; }

bool PlanController::applySizedCluster(const Scenario& sized, const QString& what)
{
    if (!mWorkbench.editable())
        return false;
    document::Document* doc = mWorkbench.document();
    if (!mSizing || !doc || !(doc->scenario() == mSizing->sized())) {
        QMessageBox::warning(mSizing ? static_cast<QWidget*>(mSizing) : mWindow, tr("Cannot apply the sized cluster"),
                             tr("The plan was edited since the sizing; size it again to apply a cluster to it."));
        return false;
    }
    const Scenario& now = doc->scenario();
    Scenario target = sized;
    target.name = now.name; // the sized cluster replaces this plan's, not its name
    if (!mWorkbench.push(
            document::changeScenario(now, mWorkbench.catalog(), target, tr("Size cluster: %1").arg(what).toStdString()),
            tr("Cannot apply the sized cluster"), mSizing))
        return false;
    Q_EMIT mWorkbench.message(tr("Applied the sized cluster (%1); Undo restores the plan as drawn.").arg(what), 10000);
    return true;
}

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
