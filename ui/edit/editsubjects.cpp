// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// The EditController's actions on what a context menu was opened on (a job, a tenant), and a
// job's Best Parallelism dialog; the Edit menu's actions are in editcontroller.cpp.
#include "editcontroller.h"

#include "io/textformat.h"
#include "sim/planresults.h"
#include "ui/plan/parallelismdialog.h"
#include "ui/workbench.h"
#include "workloadspanel.h"

#include "document/plansession.h"

#include <QAction>
#include <QMessageBox>
#include <QTableWidget>

namespace gp::ui {

using text::q;

void EditController::registerSubjectActions()
{
    ActionRegistry& actions = mWorkbench.actions();
    auto add = [&](ActionId id, const QString& text, auto slot) {
        connect(actions.add(id, text), &QAction::triggered, this, slot);
    };
    auto subject = [this] { return mWorkbench.actions().subject().id; };
    add(ActionId::EditThisJob, tr("&Edit Job…"), [this, subject] { editJob(subject()); });
    add(ActionId::PlaceJobBest, tr("&Best Placement"), [this, subject] { placeJobBest(subject().toStdString()); });
    add(ActionId::BestParallelism, tr("Best Pa&rallelism…"),
        [this, subject] { bestParallelism(subject().toStdString()); });
    add(ActionId::UnpinJob, tr("&Unpin"), [this, subject] { unpinJob(subject().toStdString()); });
    add(ActionId::DuplicateJob, tr("D&uplicate Job"), [this, subject] { duplicateJob(subject().toStdString()); });
    add(ActionId::DeleteJob, tr("&Delete Job…"), [this] {
        mWorkloads->table()->setFocus(); // the job in the current row, after asking
        deleteSelection();
    });
    add(ActionId::DeleteTenant, tr("&Delete Tenant and Its Jobs…"), [this, subject] { deleteTenant(subject()); });
}

ParallelismDialog* EditController::bestParallelism(const std::string& jobId)
{
    const document::Document* doc = mWorkbench.document();
    const Job* job = doc ? doc->scenario().findJob(jobId) : nullptr;
    if (!job)
        return nullptr;
    const Scenario& s = doc->scenario();
    // The GPUs it runs on: where it is pinned, else where the plan placed it, else the first node.
    const Node* node = job->pin ? s.topology.findNode(job->pin->node) : nullptr;
    if (const auto latest = mWorkbench.session().latest(); !node && latest && latest->evaluation)
        for (const calc::JobResult& r : latest->evaluation->jobs)
            if (r.id == jobId && !r.placement.empty())
                node = s.topology.findNode(r.placement.front().node);
    for (const Node& n : s.topology.nodes)
        if (!node && n.gpuCount > 0 && mWorkbench.catalog().gpu(n.gpuId))
            node = &n;
    const calc::JobSearchSetup setup =
        node ? calc::jobSearchSetup(s, mWorkbench.catalog(), *job, *node) : calc::JobSearchSetup{};
    if (!setup.gpu || setup.arch.layers <= 0) {
        QMessageBox::information(mWindow, tr("Best parallelism"),
                                 tr("The search needs the job's model shape and a node with a known GPU."));
        return nullptr;
    }
    calc::JobConfig current{job->parallelism, job->batch.micro, job->parallelism.gpus(), 0.0, 0.0, 0.0, 0.0};
    if (job->isTraining())
        current = calc::scoreConfig(setup, *job, calc::jobSearchComm(setup, job->parallelism.gpus()));
    const QString where =
        tr("%1 GPUs (%2 per node, like %3)").arg(q(setup.gpu->name)).arg(setup.gpusPerNode).arg(q(node->name));
    auto* dialog = new ParallelismDialog(setup, current, q(job->name), where, mWindow);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &ParallelismDialog::parallelismChosen, this,
            [this, jobId](const Parallelism& p, int micro) { setJobParallelism(jobId, p, micro); });
    connect(dialog, &ParallelismDialog::deploymentChosen, this,
            [this, jobId](const calc::ServingConfig& c) { setServingDeployment(jobId, c); });
    dialog->show();
    dialog->search();
    return dialog;
}

} // namespace gp::ui
