// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// MainWindow's exports and presentation: the report, slides, charts and tables, the cluster
// configuration and the scenario JSON, all drawn from the plan session's results
// (docs/architecture.md §4), which planResults() waits for behind a progress dialog.
#include "mainwindow.h"

#include "calc/clusterconfig.h"
#include "evaluationrunner.h"
#include "io/clusterconfigwriter.h"
#include "planfigures.h"
#include "presentation.h"
#include "reportwriter.h"

#include <QApplication>
#include <QEventLoop>
#include <QFileDialog>
#include <QInputDialog>
#include <QMenu>
#include <QMessageBox>
#include <QProgressDialog>
#include <QSettings>
#include <QStatusBar>

#include <functional>

namespace gp::ui {

std::shared_ptr<const sim::PlanResults> MainWindow::planResults()
{
    if (!mDocument)
        return nullptr;
    if (auto r = mRunner->current())
        return r;
    if (!mRunner->busy()) // nothing under way (the matrix was dropped): ask again
        mRunner->request(mDocument->scenario(), 0);
    QEventLoop loop;
    QProgressDialog dialog(tr("Computing the plan's results…"), tr("Cancel"), 0, 0, this);
    dialog.setWindowModality(Qt::WindowModal);
    dialog.setMinimumDuration(400);
    connect(mRunner.get(), &EvaluationRunner::resultsReady, &loop, &QEventLoop::quit);
    connect(&dialog, &QProgressDialog::canceled, &loop, &QEventLoop::quit);
    loop.exec();
    return mRunner->current();
}

void MainWindow::exportPdf(const QString& title, const QString& fileName, const QString& failed, const QString& done,
                           const std::function<QString(const sim::PlanResults&, const QString&)>& write)
{
    if (!mDocument)
        return;
    const QString pdf = QFileDialog::getSaveFileName(this, title, fileName, tr("PDF (*.pdf)"));
    if (pdf.isEmpty())
        return;
    const auto results = planResults();
    if (!results)
        return;
    QApplication::setOverrideCursor(Qt::WaitCursor); // drawing the pages
    const QString error = write(*results, pdf);
    QApplication::restoreOverrideCursor();
    if (!error.isEmpty())
        QMessageBox::critical(this, failed, error);
    else
        statusBar()->showMessage(done.arg(pdf), 8000);
}

QString MainWindow::recommendationKey() const
{
    return QString("recommendation/%1").arg(mDocument && mDocument->libraryId() ? *mDocument->libraryId() : 0);
}

void MainWindow::addExportActions(QMenu* file)
{
    QAction* exportAct = file->addAction(tr("&Export Scenario JSON…"), this, &MainWindow::exportJson);
    exportAct->setShortcut(QKeySequence(tr("Ctrl+E")));
    file->addAction(tr("&Present…"), this,
                    [this] {
                        if (!mDocument)
                            return;
                        bool ok = false;
                        const QString text = QInputDialog::getMultiLineText(
                            this, tr("Present"), tr("Your recommendation, for the last slide:"),
                            QSettings().value(recommendationKey()).toString(), &ok);
                        if (!ok)
                            return;
                        QSettings().setValue(recommendationKey(), text);
                        present(text);
                    })
        ->setShortcut(QKeySequence(tr("F5")));
    file->addAction(tr("Export S&lides (PDF)…"), this, [this] {
        exportPdf(tr("Export Slides"),
                  QString::fromStdString(mDocument ? mDocument->scenario().name : "") + " slides.pdf",
                  tr("Cannot export the slides"), tr("Slides written to %1"),
                  [this](const sim::PlanResults& r, const QString& pdf) {
                      return SlideDeck(r, mCatalog, QSettings().value(recommendationKey()).toString()).writePdf(pdf);
                  });
    });
    file->addAction(tr("Export &Report (PDF)…"), this, [this] {
        exportPdf(tr("Export Report"), QString::fromStdString(mDocument ? mDocument->scenario().name : "") + ".pdf",
                  tr("Cannot export the report"), tr("Report written to %1"),
                  [this](const sim::PlanResults& r, const QString& pdf) { return writeReport(r, mCatalog, pdf); });
    });
    file->addAction(tr("Export C&harts and Tables…"), this, [this] {
        if (!mDocument)
            return;
        const QString dir =
            QFileDialog::getExistingDirectory(this, tr("Export Charts (PNG, SVG) and Tables (CSV) Into"));
        if (dir.isEmpty())
            return;
        const auto results = planResults();
        if (!results)
            return;
        QApplication::setOverrideCursor(Qt::WaitCursor); // drawing the charts
        const PlanFigures figures(*results, mCatalog);
        QString error;
        io::writeFiles(dir, figures.chartAndTableFiles(), &error);
        QApplication::restoreOverrideCursor();
        if (!error.isEmpty())
            QMessageBox::critical(this, tr("Cannot export"), error);
        else
            statusBar()->showMessage(tr("Charts and tables written to %1").arg(dir), 8000);
    });
    file->addAction(tr("Export &Cluster Configuration…"), this, [this] {
        const QString dir = QFileDialog::getExistingDirectory(this, tr("Export Cluster Configuration Into"));
        if (dir.isEmpty())
            return;
        if (const QString error = exportClusterConfig(dir); !error.isEmpty())
            QMessageBox::critical(this, tr("Cannot export"), error);
    });
}

QString MainWindow::exportClusterConfig(const QString& dir)
{
    if (!mDocument)
        return tr("no scenario is open");
    const auto results = planResults();
    if (!results)
        return tr("cancelled");
    const Scenario& s = *results->scenario;
    QString error;
    if (!io::writeFiles(
            dir, io::clusterConfigFiles(calc::buildClusterConfig(s, mCatalog, *results->evaluation), s.name), &error))
        return error;
    statusBar()->showMessage(tr("Cluster configuration written to %1 (see its README.md)").arg(dir), 8000);
    return {};
}

PresentationWindow* MainWindow::present(const QString& recommendation, bool fullScreen)
{
    if (!mDocument)
        return nullptr;
    const auto results = planResults();
    if (!results)
        return nullptr;
    QApplication::setOverrideCursor(Qt::WaitCursor);
    auto deck = std::make_unique<SlideDeck>(*results, mCatalog, recommendation);
    QApplication::restoreOverrideCursor();
    return PresentationWindow::open(std::move(deck), this, fullScreen);
}

} // namespace gp::ui
