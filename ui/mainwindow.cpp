// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "mainwindow.h"
#include "model/planningtarget.h"
#include "textformat.h"

#include "addjobdialog.h"
#include "calc/inventory.h"
#include "canvas/canvasscene.h"
#include "canvas/canvasview.h"
#include "canvas/nodeitem.h"
#include "document/autosaver.h"
#include "document/commands.h"
#include "evaluationrunner.h"
#include "inspector.h"
#include "kpicards.h"
#include "librarypanel.h"
#include "model/validation.h"
#include "palette.h"
#include "propertiespanel.h"
#include "recoverybar.h"
#include "resultscharts.h"
#include "scenariotree.h"
#include "sim/simbackend.h"
#include "simulationcharts.h"
#include "workloadspanel.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QGroupBox>
#include <QGuiApplication>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QScreen>
#include <QScrollArea>
#include <QSettings>
#include <QStatusBar>
#include <QTimer>
#include <QToolBar>
#include <QUndoView>
#include <QVBoxLayout>

namespace gp::ui {

QString issuesText(const Issues& issues, int max)
{
    QStringList lines;
    for (const auto& i : issues) {
        if (lines.size() == max) {
            lines << QObject::tr("… and %1 more").arg(issues.size() - static_cast<std::size_t>(max));
            break;
        }
        lines << QString::fromStdString(i.toString());
    }
    return lines.join('\n');
}

MainWindow::MainWindow(Catalog catalog, std::unique_ptr<store::ScenarioLibrary> library, QWidget* parent)
    : QMainWindow(parent), mCatalog(std::move(catalog)), mLibrary(std::move(library)),
      mLibraryPanel(new LibraryPanel(this)), mTree(new ScenarioTree(this)), mSummary(new QLabel(this)),
      mKpis(new KpiCards(this)), mScene(new CanvasScene(mCatalog, this)), mCanvas(new CanvasView(mScene, this)),
      mWorkloads(new WorkloadsPanel(mCatalog, this)), mInspector(new Inspector(mCatalog, this)),
      mProperties(new PropertiesPanel(mCatalog, this)), mHistory(new QUndoView(this)), mCharts(new ResultsCharts(this)),
      mRunner(std::make_unique<EvaluationRunner>(mCatalog)),
      mAutosaver(std::make_unique<document::Autosaver>(mLibrary.get())), mRecovery(new RecoveryBar(this))
{
    setObjectName("MainWindow");
    setWindowIcon(QIcon(":/icons/gpuplan.svg"));
    auto* central = new QWidget(this);
    auto* layout = new QVBoxLayout(central);
    mSummary->setTextFormat(Qt::RichText);
    mSummary->setWordWrap(true);
    mSummary->setMargin(6);
    layout->addWidget(mRecovery);
    layout->addWidget(mSummary);
    layout->addWidget(mKpis);
    layout->addWidget(mCanvas, 1);
    connect(mCanvas, &CanvasView::dragFinished, this, &MainWindow::commitCanvasDrag);
    connect(mCanvas, &CanvasView::templateDropped, this, &MainWindow::addFromTemplate);
    connect(mCanvas, &CanvasView::jobDropped, this, &MainWindow::pinJobAt);
    connect(mCanvas, &CanvasView::linkRequested, this, &MainWindow::addLink);

    auto* paletteDock = new QDockWidget(tr("Palette"), this);
    paletteDock->setObjectName("PaletteDock");
    auto* palette = new Palette(mCatalog, this);
    paletteDock->setWidget(palette);
    connect(palette, &Palette::templateActivated, this, [this](const QString& key) {
        if (key.startsWith("job:"))
            addJob(key.section(':', 1));
        else if (mDocument) // a node or switch at the centre of the view
            addFromTemplate(key, mCanvas->mapToScene(mCanvas->viewport()->rect().center()));
    });

    auto* outlineDock = new QDockWidget(tr("Outline"), this);
    outlineDock->setObjectName("OutlineDock");
    outlineDock->setWidget(mTree);
    addDockWidget(Qt::RightDockWidgetArea, outlineDock);
    auto* inspectorDock = new QDockWidget(tr("Inspector"), this);
    inspectorDock->setObjectName("InspectorDock");
    {
        auto* host = new QWidget;
        auto* v = new QVBoxLayout(host);
        auto* props = new QGroupBox(tr("Properties"), host);
        (new QVBoxLayout(props))->addWidget(mProperties);
        auto* sharingBox = new QGroupBox(tr("GPU sharing"), host);
        (new QVBoxLayout(sharingBox))->addWidget(mInspector);
        v->addWidget(props);
        v->addWidget(sharingBox);
        v->addStretch(1);
        auto* scroll = new QScrollArea(inspectorDock);
        scroll->setWidgetResizable(true);
        scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
        scroll->setWidget(host);
        scroll->setMinimumWidth(320); // the inspector's fields need it; the canvas gives way
        inspectorDock->setWidget(scroll);
    }
    addDockWidget(Qt::RightDockWidgetArea, inspectorDock);
    connect(mScene, &QGraphicsScene::selectionChanged, this, [this] {
        if (!mDocument)
            return;
        const QStringList ids = mScene->selectedIds();
        mInspector->showNodes(mDocument->scenario(), ids);
        if (!ids.isEmpty())
            mProperties->showItems(mDocument->scenario(), ids);
        else if (mProperties->showsCanvasItems())
            mProperties->clear();
    });
    connect(mInspector, &Inspector::applyGpuRequested, this, &MainWindow::setSharingOfGpu);
    connect(mWorkloads, &WorkloadsPanel::jobSelected, this, [this](const QString& id) {
        if (mDocument)
            mProperties->showJob(mDocument->scenario(), id);
    });
    connect(mWorkloads, &WorkloadsPanel::tenantSelected, this, [this](const QString& id) {
        if (mDocument)
            mProperties->showTenant(mDocument->scenario(), id);
    });
    connect(mProperties, &PropertiesPanel::editRequested, this, [this](const document::Edit& edit) {
        if (editable())
            mDocument->push(edit);
    });
    connect(mInspector, &Inspector::applyRequested, this, [this](const QStringList& ids, const SharingConfig& cfg) {
        if (!editable())
            return;
        std::vector<std::string> nodes;
        for (const QString& id : ids)
            nodes.push_back(id.toStdString());
        pushEdit(document::setNodeSharing(mDocument->scenario(), mCatalog, nodes, cfg), tr("Cannot set sharing"), true);
    });
    auto* historyDock = new QDockWidget(tr("Undo History"), this);
    historyDock->setObjectName("HistoryDock");
    historyDock->setWidget(mHistory);
    addDockWidget(Qt::RightDockWidgetArea, historyDock);
    tabifyDockWidget(inspectorDock, historyDock);
    tabifyDockWidget(inspectorDock, outlineDock);
    inspectorDock->raise();
    auto* workloadsDock = new QDockWidget(tr("Workloads"), this);
    workloadsDock->setObjectName("WorkloadsDock");
    workloadsDock->setWidget(mWorkloads);
    addDockWidget(Qt::BottomDockWidgetArea, workloadsDock);
    auto* chartsDock = new QDockWidget(tr("Results"), this);
    chartsDock->setObjectName("ResultsDock");
    chartsDock->setWidget(mCharts);
    addDockWidget(Qt::BottomDockWidgetArea, chartsDock);
    tabifyDockWidget(workloadsDock, chartsDock);
    workloadsDock->raise();
    connect(mRunner.get(), &EvaluationRunner::evaluated, this,
            [this](const std::shared_ptr<const calc::Evaluation>& ev) { showEvaluation(*ev); });
    connect(mRunner.get(), &EvaluationRunner::predicted, mKpis, &KpiCards::showPrediction);
    connect(mRunner.get(), &EvaluationRunner::simulated, this, [this](std::shared_ptr<const sim::SimulationResult> r) {
        if (mDocument)
            mCharts->completion()->showSimulation(mDocument->scenario(), std::move(r));
    });
    connect(mRunner.get(), &EvaluationRunner::timelineReady, this,
            [this](std::shared_ptr<const sim::TimelineResult> t) {
                mCharts->timeline()->showTimeline(std::move(t), mRunner->timelineHorizon());
            });
    connect(mCharts->completion(), &CompletionView::fullSimulationRequested, this, [this](int trials) {
        if (!mRunner->runFullSimulation(trials))
            mCharts->completion()->setRunning(mRunner->fullSimulationRunning());
    });
    connect(mCharts->timeline(), &TimelineView::horizonChanged, this, [this](double days) {
        mRunner->setTimelineHorizon(days);
        if (mDocument)
            mRunner->request(mDocument->scenario());
    });
    connect(mRunner.get(), &EvaluationRunner::alternativesReady, mCharts, &ResultsCharts::showAlternatives);
    connect(mWorkloads, &WorkloadsPanel::editJobRequested, this, &MainWindow::editJob);
    setCentralWidget(central);
    connect(mRecovery, &RecoveryBar::restoreRequested, this, [this](const QString& s) { restoreDraft(s); });
    connect(mRecovery, &RecoveryBar::discardRequested, this, [this](const QString& s) { discardDraft(s); });
    connect(mAutosaver.get(), &document::Autosaver::failed, this,
            [this](const QString& error) { statusBar()->showMessage(tr("Autosave failed: %1").arg(error), 10000); });

    auto* dock = new QDockWidget(tr("Library"), this);
    dock->setObjectName("LibraryDock");
    dock->setWidget(mLibraryPanel);
    addDockWidget(Qt::LeftDockWidgetArea, dock);
    addDockWidget(Qt::LeftDockWidgetArea, paletteDock);
    tabifyDockWidget(dock, paletteDock);
    dock->raise();
    connect(mLibraryPanel, &LibraryPanel::openRequested, this, [this](qint64 id) {
        if (maybeSave())
            openFromLibrary(id);
    });
    connect(mLibraryPanel, &LibraryPanel::compareRequested, this, &MainWindow::compareScenarios);
    connect(mLibraryPanel, &LibraryPanel::duplicateRequested, this, &MainWindow::duplicateScenario);
    connect(mLibraryPanel, &LibraryPanel::revisionsRequested, this, &MainWindow::showRevisions);
    connect(mLibraryPanel, &LibraryPanel::deleteRequested, this, [this](qint64 id) { deleteScenario(id); });
    connect(mLibraryPanel, &LibraryPanel::renameRequested, this, [this](qint64 id) {
        const auto summary = mLibrary->scenario(id);
        bool ok = false;
        const QString name = QInputDialog::getText(this, tr("Rename Scenario"), tr("New name:"), QLineEdit::Normal,
                                                   summary ? summary->name : QString(), &ok);
        if (ok)
            renameScenario(id, name);
    });
    connect(mLibraryPanel, &LibraryPanel::tagsRequested, this, [this](qint64 id) {
        const auto summary = mLibrary->scenario(id);
        bool ok = false;
        const QString tags =
            QInputDialog::getText(this, tr("Scenario Tags"), tr("Tags, separated by commas:"), QLineEdit::Normal,
                                  summary ? summary->tags.join(", ") : QString(), &ok);
        if (!ok)
            return;
        QStringList list;
        for (const QString& t : tags.split(',', Qt::SkipEmptyParts))
            if (!t.trimmed().isEmpty())
                list << t.trimmed();
        setScenarioTags(id, list);
    });
    mLibraryPanel->reload(*mLibrary);

    createActions();
    const sim::BackendInfo backend = sim::probeBackends();
    statusBar()->showMessage(backend.cudaUsable()
                                 ? tr("Simulation: CUDA on %1").arg(QString::fromStdString(backend.cudaDevice))
                                 : tr("Simulation: CPU — %1").arg(QString::fromStdString(backend.detail)));

    QSettings settings;
    if (!restoreGeometry(settings.value("window/geometry").toByteArray()))
        resize(QSize(1440, 960).boundedTo(screen() ? screen()->availableGeometry().size() * 0.95 : QSize(1440, 960)));
    if (!restoreState(settings.value("window/state").toByteArray())) {
        // First start: room for the inspector's fields and the charts (docks size once shown).
        QTimer::singleShot(0, this, [this, dock, inspectorDock, workloadsDock] {
            resizeDocks({dock, inspectorDock}, {300, 430}, Qt::Horizontal);
            resizeDocks({workloadsDock}, {std::min(330, height() * 35 / 100)}, Qt::Vertical);
        });
    }
    updateTitle();
}

MainWindow::~MainWindow()
{
    // The scene outlives the document while QObject deletes the children: stop its signals
    // (selection changes as its items go) from reaching this window. The runner and the
    // autosaver are members declared after the catalog and the library they use, so C++
    // destroys them first (the runner stops and waits for its background work).
    mScene->disconnect(this);
    mRunner->disconnect(this);
}

void MainWindow::createActions()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* importAct = file->addAction(tr("&Import Scenario JSON…"), this, &MainWindow::importJson);
    importAct->setShortcut(QKeySequence::Open);
    QAction* newAct = file->addAction(tr("&New Scenario"), this, [this] { newScenario(); });
    newAct->setShortcut(QKeySequence::New);
    QAction* saveAct = file->addAction(tr("&Save to Library"), this, [this] { saveToLibrary(); });
    saveAct->setShortcut(QKeySequence::Save);
    file->addAction(tr("Save as &New Scenario…"), this,
                    [this] {
                        bool ok = false;
                        const QString name = QInputDialog::getText(
                            this, tr("Save as New Scenario"), tr("Name of the new scenario:"), QLineEdit::Normal,
                            mDocument ? QString::fromStdString(mDocument->scenario().name) : QString(), &ok);
                        if (ok)
                            saveAsNewScenario(name);
                    })
        ->setShortcut(QKeySequence::SaveAs);
    file->addAction(tr("Save Re&vision with Note…"), this,
                    [this] {
                        bool ok = false;
                        const QString note =
                            QInputDialog::getText(this, tr("Save Revision"), tr("What changed in this revision?"),
                                                  QLineEdit::Normal, QString(), &ok);
                        if (ok)
                            saveRevision(note.trimmed().isEmpty() ? tr("Saved from the workbench") : note.trimmed());
                    })
        ->setShortcut(QKeySequence(tr("Ctrl+Alt+S")));
    addExportActions(file);
    QMenu* recent = file->addMenu(tr("Open &Recent"));
    connect(recent, &QMenu::aboutToShow, this, [this, recent] {
        recent->clear();
        for (qint64 id : recentScenarios())
            if (auto s = mLibrary->scenario(id))
                recent->addAction(s->name, this, [this, id] {
                    if (maybeSave())
                        openFromLibrary(id);
                });
        recent->setEnabled(!recent->isEmpty());
    });
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);

    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    mEditMenu = edit;
    mUndo = edit->addAction(tr("&Undo"));
    mUndo->setShortcut(QKeySequence::Undo);
    mUndo->setEnabled(false);
    mRedo = edit->addAction(tr("&Redo"));
    mRedo->setShortcut(QKeySequence::Redo);
    mRedo->setEnabled(false);

    edit->addSeparator();
    edit->addAction(tr("Add &Job…"), this, [this] { addJob(); })->setShortcut(QKeySequence(tr("Ctrl+J")));
    edit->addAction(tr("&Edit Job…"), this, [this] { editJob(mWorkloads->selectedJobId()); })
        ->setShortcut(QKeySequence(tr("Ctrl+Shift+J")));
    edit->addAction(tr("&Copy"), this, &MainWindow::copySelection)->setShortcut(QKeySequence::Copy);
    edit->addAction(tr("&Paste"), this, &MainWindow::paste)->setShortcut(QKeySequence::Paste);
    edit->addAction(tr("D&uplicate"), this, &MainWindow::duplicateSelection)->setShortcut(QKeySequence(tr("Ctrl+D")));
    QAction* del = edit->addAction(tr("&Delete"), this, &MainWindow::deleteSelection);
    del->setShortcut(QKeySequence::Delete);
    edit->addAction(tr("&Generate Fabric…"), this,
                    [this] {
                        bool ok = false;
                        const int nodes =
                            QInputDialog::getInt(this, tr("Generate Fabric"),
                                                 tr("DGX H100 nodes under NDR leaf switches (4 per leaf, 2 spines, "
                                                    "non-blocking):"),
                                                 16, 1, 10000, 1, &ok);
                        if (!ok)
                            return;
                        document::FabricSpec spec;
                        spec.nodeTemplate = "dgx-h100";
                        spec.switchTemplate = "qm9700";
                        spec.nodes = nodes;
                        if (const QString error = addFabric(spec); !error.isEmpty())
                            QMessageBox::warning(this, tr("Cannot generate the fabric"), error);
                    })
        ->setShortcut(QKeySequence(tr("Ctrl+G")));
    QMenu* sharing = edit->addMenu(tr("Set &Sharing of Selected Nodes"));
    auto addSharing = [&](const QString& label, const QKeySequence& key, const SharingConfig& cfg) {
        QAction* a = sharing->addAction(label, this, [this, cfg] { setSharingOfSelection(cfg); });
        a->setShortcut(key);
    };
    SharingConfig exclusive, passthrough, ts, mps;
    passthrough.mode = SharingMode::Passthrough;
    ts.mode = SharingMode::TimeSlicing;
    ts.replicas = 4;
    mps.mode = SharingMode::Mps;
    mps.mpsActiveThreadPct = 50;
    addSharing(tr("Bare Metal (Exclusive)"), QKeySequence(tr("Ctrl+1")), exclusive);
    addSharing(tr("Passthrough VM"), QKeySequence(tr("Ctrl+2")), passthrough);
    addSharing(tr("Time-Slicing, 4 Replicas"), QKeySequence(tr("Ctrl+3")), ts);
    addSharing(tr("MPS, 50 % Threads"), QKeySequence(tr("Ctrl+4")), mps);

    QMenu* view = menuBar()->addMenu(tr("&View"));
    view->addAction(tr("Zoom &In"), this, [this] { mCanvas->zoomBy(1.25); })->setShortcut(QKeySequence::ZoomIn);
    view->addAction(tr("Zoom &Out"), this, [this] { mCanvas->zoomBy(0.8); })->setShortcut(QKeySequence::ZoomOut);
    view->addAction(tr("&Fit to View"), this, [this] { mCanvas->fitAll(); })->setShortcut(QKeySequence(tr("Ctrl+0")));
    view->addSeparator();
    for (QDockWidget* d : findChildren<QDockWidget*>())
        view->addAction(d->toggleViewAction());

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&About gpuplan"), this, [this] {
        QMessageBox::about(this, tr("About gpuplan"),
                           tr("<b>gpuplan %1</b><p>Capacity planning for shared GPU clusters that train, "
                              "fine-tune and serve large language models.</p>")
                               .arg(QApplication::applicationVersion()));
    });

    QToolBar* tb = addToolBar(tr("Main"));
    tb->setObjectName("MainToolBar");
    tb->addAction(newAct);
    tb->addAction(importAct);
    tb->addAction(saveAct);
    tb->addAction(mUndo);
    tb->addAction(mRedo);
}

void MainWindow::setDocument(std::unique_ptr<document::Document> doc)
{
    mDocument = std::move(doc);
    QUndoStack* stack = mDocument->undoStack();
    mHistory->setStack(stack);
    disconnect(mUndo, nullptr, nullptr, nullptr);
    disconnect(mRedo, nullptr, nullptr, nullptr);
    connect(mUndo, &QAction::triggered, stack, &QUndoStack::undo);
    connect(mRedo, &QAction::triggered, stack, &QUndoStack::redo);
    connect(stack, &QUndoStack::canUndoChanged, mUndo, &QAction::setEnabled);
    connect(stack, &QUndoStack::canRedoChanged, mRedo, &QAction::setEnabled);
    connect(stack, &QUndoStack::undoTextChanged, mUndo,
            [this](const QString& t) { mUndo->setText(tr("&Undo %1").arg(t)); });
    connect(stack, &QUndoStack::redoTextChanged, mRedo,
            [this](const QString& t) { mRedo->setText(tr("&Redo %1").arg(t)); });
    connect(mDocument.get(), &document::Document::modifiedChanged, this, &MainWindow::updateTitle);
    connect(mDocument.get(), &document::Document::changed, this, &MainWindow::documentChanged);
    mScene->rebuild(mDocument->scenario());
    setEditingEnabled(!mDocument->isReadOnly());
    mProperties->clear();
    mInspector->showNodes(mDocument->scenario(), {});
    mFitPending = true;
    mUndo->setEnabled(stack->canUndo());
    mRedo->setEnabled(stack->canRedo());
    mAutosaver->watch(mDocument.get());
    refreshView();
}

void MainWindow::setEditingEnabled(bool enabled)
{
    mEditMenu->setEnabled(enabled);
    mInspector->setEnabled(enabled && !mScene->selectedIds().isEmpty());
    mProperties->setEnabled(enabled);
    mCanvas->setInteractive(enabled);
    for (QDockWidget* d : findChildren<QDockWidget*>())
        if (d->objectName() == "PaletteDock")
            d->widget()->setEnabled(enabled);
}

void MainWindow::documentChanged(const document::Changes& changes)
{
    const Scenario& s = mDocument->scenario();
    mScene->applyChanges(s, changes);
    if (document::onlyMoves(changes)) { // positions change nothing the plan computes
        mProperties->rebase(s);
        updateTitle();
        return;
    }
    mProperties->refresh(s);
    mInspector->showNodes(s, mScene->selectedIds());
    refreshView();
}

void MainWindow::refreshView()
{
    // Every change re-evaluates in the background (debounced; a newer edit supersedes).
    mRunner->request(mDocument->scenario());
    updateTitle();
}

void MainWindow::showEvaluation(const calc::Evaluation& ev)
{
    const Scenario& s = mDocument->scenario();
    mTree->showScenario(s, mCatalog, ev);
    mKpis->showEvaluation(ev);
    mScene->decorate(s, ev);
    mWorkloads->showEvaluation(s, ev);
    mCharts->showEvaluation(s, ev);
    {
        // Flag on the canvas what the planner must not miss: jobs without a place, memory at risk.
        QStringList warnings;
        std::map<std::string, std::string> names;
        for (const Tenant& t : s.tenants)
            for (const Job& j : t.jobs)
                names[j.id] = j.name;
        for (const calc::JobResult& j : ev.jobs)
            if (!j.placed && warnings.size() < 6)
                warnings << tr("⚠ %1 is not placed: %2")
                                .arg(QString::fromStdString(names[j.id]), QString::fromStdString(j.reason));
        if (ev.kpis.unplacedJobs > static_cast<int>(warnings.size()))
            warnings << tr("… %n job(s) not placed in all", nullptr, ev.kpis.unplacedJobs);
        if (ev.kpis.oomRiskGpus > 0)
            warnings << tr("⚠ %n GPU(s) at risk of running out of memory (red frames)", nullptr, ev.kpis.oomRiskGpus);
        mCanvas->setWarnings(warnings);
    }
    if (mFitPending) { // by now the window has its size
        mFitPending = false;
        mCanvas->fitAll();
    }
    const calc::Inventory inv = calc::takeInventory(s, mCatalog);
    QString unpriced;
    if (!inv.unpricedGpus.empty())
        unpriced = tr(" (no price for %1 GPU model(s))").arg(inv.unpricedGpus.size());
    mSummary->setText(
        tr("<h2>%1</h2><p>%2</p><p><b>%3</b> GPUs on %4 nodes · <b>%5</b> GiB usable VRAM · "
           "%6 tenants, %7 jobs asking for %8 GPUs%9 · target (%12) "
           "<b>%10</b> · evaluated in %11 ms</p>")
            .arg(QString::fromStdString(s.name).toHtmlEscaped(), QString::fromStdString(s.description).toHtmlEscaped())
            .arg(inv.gpus)
            .arg(inv.nodes)
            .arg(text::grouped(inv.vramGiB))
            .arg(inv.tenants)
            .arg(inv.jobs)
            .arg(inv.gpusRequested)
            .arg(unpriced)
            .arg(ev.kpis.meetsTarget ? tr("met") : tr("not met"))
            .arg(ev.elapsedMs, 0, 'f', 1)
            .arg(QString::fromStdString(PlanningTarget::text())
                     .toHtmlEscaped())); // serving SLO attainment: its own KPI card
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

void MainWindow::updateTitle()
{
    setWindowTitle(mDocument ? tr("%1 — gpuplan").arg(mDocument->displayName()) : tr("gpuplan"));
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    if (!maybeSave()) {
        event->ignore();
        return;
    }
    mAutosaver->discard(); // saved, or the user chose to discard the changes
    QSettings settings;
    settings.setValue("window/geometry", saveGeometry());
    settings.setValue("window/state", saveState());
    event->accept();
}

} // namespace gp::ui
