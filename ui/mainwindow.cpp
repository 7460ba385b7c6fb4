// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "mainwindow.h"

#include "actionregistry.h"
#include "canvas/canvaseditor.h"
#include "canvas/canvasscene.h"
#include "canvas/canvasview.h"
#include "contextmenus.h"
#include "document/autosaver.h"
#include "document/commands.h"
#include "document/plansession.h"
#include "helpcontroller.h"
#include "palette.h"
#include "sim/simbackend.h"
#include "ui/edit/canvasnavigator.h"
#include "ui/edit/editcontroller.h"
#include "ui/edit/inspector.h"
#include "ui/edit/propertiespanel.h"
#include "ui/edit/scenariotree.h"
#include "ui/edit/workloadspanel.h"
#include "ui/library/connectdialog.h"
#include "ui/library/librarycontroller.h"
#include "ui/library/librarypanel.h"
#include "ui/library/livelibrary.h"
#include "ui/library/recoverybar.h"
#include "ui/library/recoverycontroller.h"
#include "ui/plan/plancontroller.h"
#include "ui/results/exportcontroller.h"
#include "ui/results/kpicards.h"
#include "ui/results/plansummary.h"
#include "ui/results/resultscharts.h"
#include "ui/results/resultscontroller.h"
#include "ui/studies/studycontroller.h"
#include "welcomepanel.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QGraphicsItem>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QScreen>
#include <QSettings>
#include <QStatusBar>
#include <QTimer>
#include <QToolBar>
#include <QUndoView>
#include <QVBoxLayout>

namespace gp::ui {

MainWindow::MainWindow(Catalog catalog, std::unique_ptr<store::ScenarioLibrary> library, QWidget* parent)
    : QMainWindow(parent), mWorkbench(std::make_unique<Workbench>(std::move(catalog), std::move(library))),
      mLibraryPanel(new LibraryPanel(this)), mTree(new ScenarioTree(this)), mSummary(new PlanSummary(this)),
      mKpis(new KpiCards(this)), mScene(new CanvasScene(mWorkbench->catalog(), this)),
      mCanvas(new CanvasView(mScene, this)), mWorkloads(new WorkloadsPanel(mWorkbench->catalog(), this)),
      mInspector(new Inspector(mWorkbench->catalog(), this)),
      mProperties(new PropertiesPanel(mWorkbench->catalog(), this)), mHistory(new QUndoView(this)),
      mCharts(new ResultsCharts(this, true)), mRecovery(new RecoveryBar(this)),
      mFiles(new LibraryController(*mWorkbench, mLibraryPanel, this)),
      mEdits(new EditController(*mWorkbench, mScene, mTree, mWorkloads, this)),
      mExports(new ExportController(*mWorkbench, this)), mPlans(new PlanController(*mWorkbench, mScene, mFiles, this)),
      mStudies(new StudyController(*mWorkbench, mFiles, this)),
      mRecoveryFlow(new RecoveryController(
          *mWorkbench, mRecovery, [this] { return mFiles->maybeSave(); }, this))
{
    setObjectName("MainWindow");
    mWorkbench->actions().setParent(this); // the window's actions, with it until its last menu goes
    setWindowIcon(QIcon(":/icons/gpuplan.svg"));
    auto* editor = new CanvasEditor(*mWorkbench, *mScene, this);
    mCanvas->setEditor(editor);
    connect(editor, &CanvasEditor::jobTemplateDropped, mEdits,
            [this](const QString& preset, const std::string& node) { mEdits->addJob(preset, node); });
    auto* central = new QWidget(this);
    auto* layout = new QVBoxLayout(central);
    layout->addWidget(mRecovery);
    mLive = new LiveLibrary(*mWorkbench, mLibraryPanel, mFiles, central);
    layout->addWidget(mLive);
    layout->addWidget(mSummary);
    layout->addWidget(mKpis);
    layout->addWidget(mCanvas, 1);
    // The heading and the cards keep the height their text needs; the canvas gets the rest,
    // never less than a usable view.
    mSummary->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Minimum);
    mKpis->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Minimum);
    mCanvas->setMinimumHeight(120);
    setCentralWidget(central);
    createDocks();

    Workbench* wb = mWorkbench.get();
    // The views follow the workbench's document themselves, the canvas first (the inspector
    // and the properties read its selection after it rebuilt).
    mCanvas->follow(*wb);
    connect(wb, &Workbench::documentReplaced, this, &MainWindow::documentReplaced);
    connect(wb, &Workbench::documentChanged, this, &MainWindow::updateTitle); // a rename
    connect(&wb->session(), &document::PlanSession::resultsChanged, this, &MainWindow::updateCalibrationStatus);
    connect(wb, &Workbench::editableChanged, this, [this](bool editable) {
        if (mEditMenu)
            mEditMenu->setEnabled(editable);
        if (auto* palette = findChild<QDockWidget*>("PaletteDock"))
            palette->widget()->setEnabled(editable);
    });
    connect(wb, &Workbench::message, statusBar(), &QStatusBar::showMessage);
    connect(&wb->autosaver(), &document::Autosaver::failed, this,
            [this](const QString& error) { statusBar()->showMessage(tr("Autosave failed: %1").arg(error), 10000); });
    mResults = new ResultsController(*mWorkbench, {mSummary, mKpis, mTree, mScene, mCanvas, mWorkloads, mCharts}, this);
    connect(mEdits, &EditController::framingRequested, mResults, &ResultsController::requestFraming);
    mNavigator = new CanvasNavigator(*mWorkbench, mScene, mCanvas, mWorkloads, this);
    connect(mResults, &ResultsController::jobsToShow, mNavigator,
            [this](const QStringList& ids) { mNavigator->showJobs(ids, CanvasNavigator::Framing::Always); });
    new ContextMenus(*mWorkbench, mCanvas, mWorkloads, this);
    mInspector->follow(*mWorkbench, mScene); // after the canvas's and the panels' syncs above
    mProperties->follow(*mWorkbench, mScene, mWorkloads);
    // One door for a sharing edit: the inspector's, the Edit menu's and the canvas menu's.
    connect(mInspector, &Inspector::applyGpuRequested, mEdits, &EditController::setSharingOfGpu);
    connect(mInspector, &Inspector::applyRequested, mEdits, &EditController::setSharingOfNodes);

    createActions();
    const sim::BackendInfo backend = sim::probeBackends();
    statusBar()->showMessage(backend.cudaUsable()
                                 ? tr("Simulation: CUDA on %1").arg(QString::fromStdString(backend.cudaDevice))
                                 : tr("Simulation: CPU — %1").arg(QString::fromStdString(backend.detail)));
    updateTitle();
}

MainWindow::~MainWindow()
{
    // The views outlive the workbench while QObject deletes the children: stop the scene's
    // signals (selection changes as its items go) and the workloads' from reaching the views
    // that read the workbench, and the session's from reaching any view.
    mScene->disconnect(mInspector);
    mScene->disconnect(mProperties);
    mWorkloads->disconnect(mProperties);
    mWorkbench->session().disconnect();
}

void MainWindow::createDocks()
{
    auto* palette = new Palette(mWorkbench->catalog(), this);
    connect(palette, &Palette::templateActivated, mEdits,
            [this](const QString& key) { mEdits->addFromPalette(key, mCanvas); });
    QWidget* inspectorPane = Inspector::pane(mProperties, mInspector);

    auto dock = [this](const QString& title, const char* name, QWidget* content, Qt::DockWidgetArea area) {
        auto* d = new QDockWidget(title, this);
        d->setObjectName(name);
        d->setWidget(content);
        addDockWidget(area, d);
        return d;
    };
    QDockWidget* outlineDock = dock(tr("Outline"), "OutlineDock", mTree, Qt::RightDockWidgetArea);
    QDockWidget* inspectorDock = dock(tr("Inspector"), "InspectorDock", inspectorPane, Qt::RightDockWidgetArea);
    QDockWidget* historyDock = dock(tr("Undo History"), "HistoryDock", mHistory, Qt::RightDockWidgetArea);
    tabifyDockWidget(inspectorDock, historyDock);
    tabifyDockWidget(inspectorDock, outlineDock);
    inspectorDock->raise();
    QDockWidget* workloadsDock = dock(tr("Workloads"), "WorkloadsDock", mWorkloads, Qt::BottomDockWidgetArea);
    QDockWidget* chartsDock = dock(tr("Results"), "ResultsDock", mCharts, Qt::BottomDockWidgetArea);
    tabifyDockWidget(workloadsDock, chartsDock);
    workloadsDock->raise();
    QDockWidget* libraryDock = dock(tr("Library"), "LibraryDock", mLibraryPanel, Qt::LeftDockWidgetArea);
    QDockWidget* paletteDock = dock(tr("Palette"), "PaletteDock", palette, Qt::LeftDockWidgetArea);
    tabifyDockWidget(libraryDock, paletteDock);
    libraryDock->raise();

    QSettings settings;
    if (!restoreGeometry(settings.value("window/geometry").toByteArray()))
        resize(QSize(1440, 960).boundedTo(screen() ? screen()->availableGeometry().size() * 0.95 : QSize(1440, 960)));
    if (!restoreState(settings.value("window/state").toByteArray())) {
        // First start: room for the inspector's fields and the charts (docks size once shown).
        QTimer::singleShot(0, this, [this, libraryDock, inspectorDock, workloadsDock] {
            // A short screen (1366×768) gives the canvas more of its height and width.
            const bool small = height() < kCompactHeight;
            resizeDocks({libraryDock, inspectorDock}, {small ? 250 : 300, small ? 360 : 430}, Qt::Horizontal);
            resizeDocks({workloadsDock}, {std::min(330, height() * (small ? 36 : 35) / 100)}, Qt::Vertical);
        });
    }
}

void MainWindow::createActions()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    const QList<QAction*> fileActions = mFiles->addFileActions(file);
    mExports->addExportActions(file);
    mFiles->addRecentMenu(file);
    file->addAction(tr("Connect to &Team Library…"), this, [this] {
        ConnectDialog dialog(this);
        if (dialog.exec() == QDialog::Accepted)
            openLibraryWindow(dialog.takeLibrary());
    });
    file->addSeparator();
    file->addAction(tr("&Quit"), this, &QWidget::close)->setShortcut(QKeySequence::Quit);

    mEditMenu = menuBar()->addMenu(tr("&Edit"));
    fillMenu(mEditMenu, {ActionId::Undo, ActionId::Redo});
    mEditMenu->addSeparator();
    fillMenu(mEditMenu, {ActionId::AddJob, ActionId::EditJob, ActionId::Copy, ActionId::Paste, ActionId::Duplicate,
                         ActionId::Delete, ActionId::GenerateFabric, ActionId::ArrangeFabric});
    QMenu* sharing = mEditMenu->addMenu(tr("Set &Sharing of Selected Nodes"));
    fillMenu(sharing, {std::begin(EditController::kSharingActions), std::end(EditController::kSharingActions)});

    QMenu* view = menuBar()->addMenu(tr("&View"));
    fillMenu(view, {ActionId::ZoomIn, ActionId::ZoomOut, ActionId::FitToView});
    mNavigator->addViewActions(view);
    view->addSeparator();
    for (QDockWidget* d : findChildren<QDockWidget*>())
        view->addAction(d->toggleViewAction());

    mPlans->addPlanActions(menuBar()->addMenu(tr("&Plan")));

    mStudies->addStudyActions(menuBar()->addMenu(tr("&Results")));
    // Plan vs Measured's rows select their job (Workloads, canvas) or node (canvas).
    connect(mStudies, &StudyController::jobChosen, this, [this](const QString& jobId) {
        raisePanel(tr("Workloads"));
        mWorkloads->selectJob(jobId);
        mScene->highlightJobs({jobId});
    });
    connect(mStudies, &StudyController::nodeChosen, this, [this](const QString& nodeId) {
        mScene->setSelectedIds({nodeId});
        if (QGraphicsItem* item = mScene->item(nodeId))
            mCanvas->ensureVisible(item);
    });

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&Welcome"), this, &MainWindow::showWelcome);
    mHelp = new HelpController(this);
    mHelp->addHelpActions(help);

    QToolBar* tb = addToolBar(tr("Main"));
    tb->setObjectName("MainToolBar");
    tb->addActions(fileActions);
    fillMenu(tb, {ActionId::Undo, ActionId::Redo});
}

MainWindow* MainWindow::openLibraryWindow(std::unique_ptr<store::ScenarioLibrary> library)
{
    if (!library)
        return nullptr;
    const QString where = library->path().section('?', 0, 0);
    auto* window = new MainWindow(mWorkbench->catalog(), std::move(library));
    window->setAttribute(Qt::WA_DeleteOnClose);
    window->resize(size());
    window->show();
    window->files()->openFirst();
    Q_EMIT window->mWorkbench->message(tr("Connected to %1 as %2").arg(where, window->library()->author()), 8000);
    return window;
}

ReplayDialog* MainWindow::placementReplay() const { return mStudies->placementReplay(); }

SweepDialog* MainWindow::openSweep(const QString& folder) { return mStudies->openSweep(folder); }

void MainWindow::fillMenu(QWidget* menu, const std::vector<ActionId>& ids)
{
    for (ActionId id : ids)
        menu->addAction(mWorkbench->actions().action(id));
}

void MainWindow::documentReplaced()
{
    document::Document* doc = currentDocument();
    mHistory->setStack(doc->undoStack());
    connect(doc, &document::Document::modifiedChanged, this, &MainWindow::updateTitle);
    mResults->requestFraming();
    updateTitle();
}

bool MainWindow::raisePanel(const QString& name)
{
    for (QDockWidget* d : findChildren<QDockWidget*>())
        if (d->windowTitle() == name) {
            d->show();
            d->raise();
            return true;
        }
    for (int i = 0; i < mCharts->count(); ++i)
        if (mCharts->tabText(i) == name) {
            raisePanel(tr("Results"));
            mCharts->setCurrentIndex(i);
            return true;
        }
    return false;
}

WelcomePanel* MainWindow::showWelcome()
{
    return mFiles->showWelcome([this] { mHelp->showUserGuide(); });
}

void MainWindow::updateTitle()
{
    const document::Document* doc = currentDocument();
    setWindowTitle(doc ? tr("%1 — gpuplan").arg(doc->displayName()) : tr("gpuplan"));
    updateCalibrationStatus();
}

void MainWindow::updateCalibrationStatus()
{
    const document::Document* doc = currentDocument();
    // Which parameters every figure is computed with: the scenario's own calibration profile, or
    // the defaults (docs/calibration.md#a-scenarios-profile).
    if (!mCalibration) {
        mCalibration = new QLabel(this);
        mCalibration->setObjectName("calibrationStatus");
        statusBar()->addPermanentWidget(mCalibration);
    }
    const bool calibrated = doc && doc->scenario().calibration;
    mCalibration->setVisible(calibrated);
    if (!calibrated)
        return;
    // Values the plan cannot take (a GPU, stack or tenant it lacks) stay at their defaults: said
    // here, never silently, as the evaluation of this very profile found them (the plan session's,
    // off the GUI thread; until it arrives, none are counted).
    const Scenario& s = doc->scenario();
    const auto results = mWorkbench->session().latest();
    const bool evaluated =
        results && results->scenario && results->evaluation && results->scenario->calibration == s.calibration;
    const Issues unused = evaluated ? results->evaluation->calibrationIssues : Issues{};
    QStringList lines;
    for (const Issue& i : unused)
        lines << QString::fromStdString(i.toString());
    const QString label = QString::fromStdString(profileLabel(*s.calibration));
    const QString full =
        unused.empty()
            ? tr("Calibrated: %1").arg(label)
            : tr("Calibrated: %1 (%n value(s) not applied)", nullptr, static_cast<int>(unused.size())).arg(label);
    // A profile's name can be long (CLUSTER/STACK+STACK): elided in the middle, whole in the tooltip;
    // its width reserved so that a status message never covers it.
    const QString shown = mCalibration->fontMetrics().elidedText(full, Qt::ElideMiddle, 440);
    mCalibration->setText(shown);
    mCalibration->setMinimumWidth(mCalibration->fontMetrics().horizontalAdvance(shown) + 8);
    lines.prepend(full);
    mCalibration->setToolTip(lines.join('\n'));
}

void MainWindow::resizeEvent(QResizeEvent* event)
{
    QMainWindow::resizeEvent(event);
    const bool compact = height() < kCompactHeight;
    mSummary->setCompact(compact);
    mKpis->setCompact(compact);
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    if (!mFiles->maybeSave()) {
        event->ignore();
        return;
    }
    mWorkbench->autosaver().discard(); // saved, or the user chose to discard the changes
    QSettings settings;
    settings.setValue("window/geometry", saveGeometry());
    settings.setValue("window/state", saveState());
    event->accept();
}

} // namespace gp::ui
