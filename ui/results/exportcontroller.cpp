// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "exportcontroller.h"

#include "calc/clusterconfig.h"
#include "document/plansession.h"
#include "io/clusterconfigwriter.h"
#include "io/filewriter.h"
#include "io/scenariowriter.h"
#include "presentationwindow.h"
#include "ui/figures/planfigures.h"
#include "ui/figures/reportwriter.h"
#include "ui/workbench.h"

#include <QApplication>
#include <QEventLoop>
#include <QFileDialog>
#include <QInputDialog>
#include <QMenu>
#include <QMessageBox>
#include <QProgressDialog>
#include <QSettings>

namespace gp::ui {

ExportController::ExportController(Workbench& workbench, QWidget* window)
    : QObject(window), mWorkbench(workbench), mWindow(window)
{
}

std::shared_ptr<const sim::PlanResults> ExportController::planResults()
{
    const document::Document* doc = mWorkbench.document();
    if (!doc)
        return nullptr;
    document::PlanSession& session = mWorkbench.session();
    if (auto r = session.current())
        return r;
    if (!session.busy()) // nothing under way (the matrix was dropped): ask again
        session.refresh(0);
    QEventLoop loop;
    QProgressDialog dialog(tr("Computing the plan's results…"), tr("Cancel"), 0, 0, mWindow);
    dialog.setWindowModality(Qt::WindowModal);
    dialog.setMinimumDuration(400);
    connect(&session, &document::PlanSession::resultsChanged, &loop,
            [&loop](const std::shared_ptr<const sim::PlanResults>& r) {
                if (r->complete())
                    loop.quit();
            });
    connect(&dialog, &QProgressDialog::canceled, &loop, &QEventLoop::quit);
    loop.exec();
    return session.current();
}

QString ExportController::scenarioName() const
{
    return mWorkbench.document() ? QString::fromStdString(mWorkbench.document()->scenario().name) : QString();
}

void ExportController::exportPdf(const QString& title, const QString& fileName, const QString& failed,
                                 const QString& done,
                                 const std::function<Status(const sim::PlanResults&, const QString&)>& write)
{
    if (!mWorkbench.document())
        return;
    const QString pdf = QFileDialog::getSaveFileName(mWindow, title, fileName, tr("PDF (*.pdf)"));
    if (pdf.isEmpty())
        return;
    const auto results = planResults();
    if (!results)
        return;
    QApplication::setOverrideCursor(Qt::WaitCursor); // drawing the pages
    const Status written = write(*results, pdf);
    QApplication::restoreOverrideCursor();
    if (!written)
        QMessageBox::critical(mWindow, failed, issuesText(written.issues));
    else
        Q_EMIT mWorkbench.message(done.arg(pdf), 8000);
}

Status ExportController::exportReport(const QString& pdf)
{
    const auto results = mWorkbench.document() ? planResults() : nullptr;
    if (!results)
        return failure(pdf.toStdString(), "no plan results");
    return writeReport(*results, mWorkbench.catalog(), pdf, nullptr, mWorkbench.measuredComparison());
}

QString ExportController::recommendationKey() const
{
    const document::Document* doc = mWorkbench.document();
    return QString("recommendation/%1").arg(doc && doc->libraryId() ? *doc->libraryId() : 0);
}

void ExportController::addExportActions(QMenu* file)
{
    file->addAction(tr("&Export Scenario JSON…"), this, &ExportController::exportJson)
        ->setShortcut(QKeySequence(tr("Ctrl+E")));
    file->addAction(tr("&Present…"), this,
                    [this] {
                        if (!mWorkbench.document())
                            return;
                        bool ok = false;
                        const QString text = QInputDialog::getMultiLineText(
                            mWindow, tr("Present"), tr("Your recommendation, for the last slide:"),
                            QSettings().value(recommendationKey()).toString(), &ok);
                        if (!ok)
                            return;
                        QSettings().setValue(recommendationKey(), text);
                        present(text);
                    })
        ->setShortcut(QKeySequence(tr("F5")));
    const Catalog& catalog = mWorkbench.catalog();
    file->addAction(tr("Export S&lides (PDF)…"), this, [this, &catalog] {
        exportPdf(tr("Export Slides"), scenarioName() + " slides.pdf", tr("Cannot export the slides"),
                  tr("Slides written to %1"), [this, &catalog](const sim::PlanResults& r, const QString& pdf) {
                      return SlideDeck(r, catalog, QSettings().value(recommendationKey()).toString()).writePdf(pdf);
                  });
    });
    file->addAction(tr("Export &Report (PDF)…"), this, [this, &catalog] {
        exportPdf(tr("Export Report"), scenarioName() + ".pdf", tr("Cannot export the report"),
                  tr("Report written to %1"), [this, &catalog](const sim::PlanResults& r, const QString& pdf) {
                      // The session's last Plan vs Measured comparison adds its pages.
                      return writeReport(r, catalog, pdf, nullptr, mWorkbench.measuredComparison());
                  });
    });
    file->addAction(tr("Export C&harts and Tables…"), this, &ExportController::exportCharts);
    file->addAction(tr("Export &Cluster Configuration…"), this, [this] {
        const QString dir = QFileDialog::getExistingDirectory(mWindow, tr("Export Cluster Configuration Into"));
        if (!dir.isEmpty())
            exportClusterConfig(dir);
    });
    file->addAction(tr("Export &DRA Objects…"), this, [this] {
        const QString dir = QFileDialog::getExistingDirectory(mWindow, tr("Export DRA Objects Into"));
        if (!dir.isEmpty())
            exportClusterConfig(dir, io::ClusterExportFormat::Dra);
    });
    file->addAction(tr("Export HA&Mi Requests…"), this, [this] {
        const QString dir = QFileDialog::getExistingDirectory(mWindow, tr("Export HAMi Requests Into"));
        if (!dir.isEmpty())
            exportClusterConfig(dir, io::ClusterExportFormat::Hami);
    });
    file->addAction(tr("Export &KAI Objects…"), this, [this] {
        const QString dir = QFileDialog::getExistingDirectory(mWindow, tr("Export KAI Scheduler Objects Into"));
        if (!dir.isEmpty())
            exportClusterConfig(dir, io::ClusterExportFormat::Kai);
    });
}

void ExportController::exportJson()
{
    const document::Document* doc = mWorkbench.document();
    if (!doc)
        return;
    const QString file = QFileDialog::getSaveFileName(mWindow, tr("Export Scenario"), scenarioName() + ".json",
                                                      tr("Scenario JSON (*.json)"));
    if (file.isEmpty())
        return;
    if (const Status written = io::writeFileAtomically(file, io::writeScenario(doc->scenario())); !written)
        QMessageBox::critical(mWindow, tr("Cannot export"), issuesText(written.issues));
}

void ExportController::exportCharts()
{
    if (!mWorkbench.document())
        return;
    const QString dir =
        QFileDialog::getExistingDirectory(mWindow, tr("Export Charts (PNG, SVG) and Tables (CSV) Into"));
    if (dir.isEmpty())
        return;
    const auto results = planResults();
    if (!results)
        return;
    QApplication::setOverrideCursor(Qt::WaitCursor); // drawing the charts
    const PlanFigures figures(*results, mWorkbench.catalog());
    const Status written = io::writeFiles(dir, figures.chartAndTableFiles());
    QApplication::restoreOverrideCursor();
    if (!written)
        QMessageBox::critical(mWindow, tr("Cannot export"), issuesText(written.issues));
    else
        Q_EMIT mWorkbench.message(tr("Charts and tables written to %1").arg(dir), 8000);
}

bool ExportController::exportClusterConfig(const QString& dir, io::ClusterExportFormat format)
{
    if (!mWorkbench.document())
        return false;
    const auto results = planResults();
    if (!results)
        return false; // cancelled
    const Scenario& s = *results->scenario;
    const Catalog& catalog = mWorkbench.catalog();
    const Status written = io::writeFiles(
        dir, io::clusterExportFiles(calc::buildClusterConfig(s, catalog, *results->evaluation), s.name, {format}));
    if (!written) {
        QMessageBox::critical(mWindow, tr("Cannot export"), issuesText(written.issues));
        return false;
    }
    const QString readme = format == io::ClusterExportFormat::Dra    ? QString("dra/README.md")
                           : format == io::ClusterExportFormat::Hami ? QString("hami/README.md")
                           : format == io::ClusterExportFormat::Kai  ? QString("kai/README.md")
                                                                     : QString("README.md");
    Q_EMIT mWorkbench.message(tr("Cluster configuration written to %1 (see its %2)").arg(dir, readme), 8000);
    return true;
}

PresentationWindow* ExportController::present(const QString& recommendation, bool fullScreen)
{
    if (!mWorkbench.document())
        return nullptr;
    const auto results = planResults();
    if (!results)
        return nullptr;
    QApplication::setOverrideCursor(Qt::WaitCursor);
    auto deck = std::make_unique<SlideDeck>(*results, mWorkbench.catalog(), recommendation);
    QApplication::restoreOverrideCursor();
    return PresentationWindow::open(std::move(deck), mWindow, fullScreen);
}

} // namespace gp::ui
