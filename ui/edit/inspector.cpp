// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "inspector.h"
#include "miglayoutview.h"
#include "propertiespanel.h"

#include "ui/canvas/canvasscene.h"
#include "ui/wheelguard.h"
#include "ui/workbench.h"

#include "model/enumnames.h"
#include "model/limits.h"
#include "model/miglayout.h"
#include "model/validation.h"

#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>

namespace gp::ui {

namespace {

const std::vector<std::pair<SharingMode, QString>> kModes = {
    {SharingMode::Exclusive, QObject::tr("Bare metal (exclusive)")},
    {SharingMode::Passthrough, QObject::tr("Passthrough VM")},
    {SharingMode::Mig, QObject::tr("MIG partitions")},
    {SharingMode::Vgpu, QObject::tr("vGPU")},
    {SharingMode::TimeSlicing, QObject::tr("Time-slicing")},
    {SharingMode::Mps, QObject::tr("MPS")},
};

QString describe(const std::vector<MigInstance>& layout)
{
    QStringList parts;
    for (const auto& inst : layout)
        parts << QString("%1@%2").arg(QString::fromStdString(inst.profile)).arg(inst.start);
    return parts.join(" + ");
}

} // namespace

void Inspector::follow(Workbench& workbench, CanvasScene* scene)
{
    auto show = [this, &workbench, scene] {
        if (const document::Document* doc = workbench.document())
            showNodes(doc->scenario(), scene->selectedIds());
    };
    connect(&workbench, &Workbench::documentReplaced, this, show); // after the canvas rebuilt: nothing selected
    connect(&workbench, &Workbench::documentChanged, this, [show](const document::Changes& changes) {
        if (!document::onlyMoves(changes)) // a move changes nothing the inspector shows
            show();
    });
    connect(scene, &QGraphicsScene::selectionChanged, this, show);
    connect(&workbench, &Workbench::editableChanged, this,
            [this, scene](bool editable) { setEnabled(editable && !scene->selectedIds().isEmpty()); });
}

QWidget* Inspector::pane(PropertiesPanel* properties, Inspector* sharing)
{
    auto* host = new QWidget;
    auto* v = new QVBoxLayout(host);
    auto* props = new QGroupBox(tr("Properties"), host);
    (new QVBoxLayout(props))->addWidget(properties);
    auto* sharingBox = new QGroupBox(tr("GPU sharing"), host);
    (new QVBoxLayout(sharingBox))->addWidget(sharing);
    v->addWidget(props);
    v->addWidget(sharingBox);
    sharingBox->setObjectName("gpuSharingBox");
    connect(properties, &PropertiesPanel::subjectChanged, sharingBox,
            [properties, sharingBox] { sharingBox->setVisible(!properties->showsJobOrTenant()); });
    v->addStretch(1);
    auto* scroll = new QScrollArea;
    scroll->setWidgetResizable(true);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setWidget(host);
    scroll->setMinimumWidth(320); // the inspector's fields need it; the canvas gives way
    WheelGuard::install(scroll);
    return scroll;
}

Inspector::Inspector(const Catalog& catalog, QWidget* parent)
    : QWidget(parent), mCatalog(catalog), mTitle(new QLabel(this)), mMode(new QComboBox(this)),
      mAmount(new QSpinBox(this)), mChoice(new QComboBox(this)), mMessage(new QLabel(this)),
      mApply(new QPushButton(tr("Apply to Selection"), this)), mGpuChoice(new QComboBox(this)),
      mMigBox(new QGroupBox(tr("MIG layout editor"), this)), mMigView(new MigLayoutView(mMigBox)),
      mAddProfile(new QComboBox(mMigBox)), mAddStart(new QComboBox(mMigBox)), mAdd(new QPushButton(tr("Add"), mMigBox)),
      mRemove(new QPushButton(tr("Remove"), mMigBox))
{
    // Named for tests and accessibility tools; the labels are translated.
    mMode->setObjectName("sharingMode");
    mAmount->setObjectName("sharingAmount");
    mChoice->setObjectName("sharingChoice");
    mGpuChoice->setObjectName("sharingAppliesTo");
    mApply->setObjectName("applySharing");
    mMessage->setObjectName("sharingMessage");
    mAddProfile->setObjectName("migAddProfile");
    mAddStart->setObjectName("migAddStart");
    for (const auto& [mode, label] : kModes)
        mMode->addItem(label, static_cast<int>(mode));
    mMessage->setWordWrap(true);
    mTitle->setWordWrap(true);
    // MIG layouts have long names: keep the dock narrow, show them in full in the drop-down.
    mChoice->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    mChoice->setMinimumContentsLength(12);
    mGpuChoice->setToolTip(tr("Edit the whole node, or give one GPU its own sharing (an override)"));
    mAddProfile->setToolTip(tr("Only profiles that still fit next to the instances above (MIG placement rules)"));
    mAddStart->setToolTip(tr("Only the start slices this profile may take now"));
    auto* migForm = new QFormLayout(mMigBox);
    migForm->addRow(mMigView);
    auto* addRow = new QHBoxLayout;
    addRow->addWidget(mAddProfile, 1);
    addRow->addWidget(new QLabel(tr("at slice"), mMigBox));
    addRow->addWidget(mAddStart);
    migForm->addRow(addRow);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(mAdd);
    buttons->addWidget(mRemove);
    migForm->addRow(buttons);

    auto* form = new QFormLayout(this);
    form->addRow(mTitle);
    form->addRow(tr("Applies to"), mGpuChoice);
    form->addRow(tr("Sharing"), mMode);
    form->addRow(tr("Amount"), mAmount);
    form->addRow(tr("Layout / profile"), mChoice);
    form->addRow(mMigBox);
    form->addRow(mMessage);
    form->addRow(mApply);
    connect(mMode, &QComboBox::currentIndexChanged, this, [this] { rebuildChoices(); });
    connect(mAmount, &QSpinBox::valueChanged, this, [this] { revalidate(); });
    connect(mChoice, &QComboBox::currentIndexChanged, this, [this] {
        const auto mode = static_cast<SharingMode>(mMode->currentData().toInt());
        if (mode == SharingMode::Mig && mChoice->currentIndex() >= 0 &&
            mChoice->currentIndex() < static_cast<int>(mLayouts.size())) {
            mMigLayout = mLayouts[static_cast<std::size_t>(mChoice->currentIndex())]; // a preset to start from
            refreshMigEditor();
        }
        revalidate();
    });
    connect(mGpuChoice, &QComboBox::currentIndexChanged, this, [this] {
        if (mNodes.size() != 1)
            return;
        const int gpu = mGpuChoice->currentData().toInt();
        loadSharing(gpu < 0 ? mNodes.front().sharing : mNodes.front().sharingOf(gpu));
        mApply->setText(gpu < 0 ? tr("Apply to Selection") : tr("Apply to GPU %1").arg(gpu));
    });
    connect(mAddProfile, &QComboBox::currentIndexChanged, this, &Inspector::refreshStarts);
    connect(mAdd, &QPushButton::clicked, this,
            [this] { addInstance(mAddProfile->currentText(), mAddStart->currentData().toInt()); });
    connect(mRemove, &QPushButton::clicked, this, [this] { removeInstance(mMigView->selected()); });
    connect(mMigView, &MigLayoutView::addRequested, this, &Inspector::addInstance);
    connect(mMigView, &MigLayoutView::moveRequested, this, &Inspector::moveInstance);
    connect(mMigView, &MigLayoutView::removeRequested, this, &Inspector::removeInstance);
    connect(mMigView, &MigLayoutView::selectionChanged, this,
            [this](int index) { mRemove->setEnabled(index >= 0 || !mMigLayout.empty()); });
    connect(mApply, &QPushButton::clicked, this, &Inspector::apply);
    showNodes({}, {});
}

void Inspector::showNodes(const Scenario& scenario, const QStringList& ids)
{
    mIds.clear();
    mNodes.clear();
    mGpu = nullptr;
    bool mixed = false;
    for (const Node& n : scenario.topology.nodes)
        if (ids.contains(QString::fromStdString(n.id))) {
            mIds << QString::fromStdString(n.id);
            const GpuSpec* g = mCatalog.gpu(n.gpuId);
            if (mNodes.empty())
                mGpu = g;
            else if (g != mGpu)
                mixed = true;
            mNodes.push_back(n);
        }
    if (mixed)
        mGpu = nullptr;
    setEnabled(!mIds.isEmpty());
    {
        QSignalBlocker block(mGpuChoice);
        mGpuChoice->clear();
        mGpuChoice->addItem(mIds.size() > 1 ? tr("All selected nodes") : tr("Whole node"), -1);
        if (mNodes.size() == 1)
            for (int g = 0; g < mNodes.front().gpuCount; ++g)
                mGpuChoice->addItem(
                    mNodes.front().gpuSharing.count(g) ? tr("GPU %1 (own sharing)").arg(g) : tr("GPU %1").arg(g), g);
        mGpuChoice->setEnabled(mNodes.size() == 1);
    }
    mApply->setText(tr("Apply to Selection"));
    if (mIds.isEmpty()) {
        mTitle->setText(tr("Select nodes on the canvas to edit how their GPUs are shared."));
        mMigBox->hide();
        return;
    }
    const Node& first = mNodes.front();
    mTitle->setText(mIds.size() == 1
                        ? tr("<b>%1</b> — %2 x %3")
                              .arg(mIds.front())
                              .arg(first.gpuCount)
                              .arg(mGpu ? QString::fromStdString(mGpu->name) : QString())
                        : tr("<b>%1 nodes</b>%2")
                              .arg(mIds.size())
                              .arg(mixed ? tr(" (mixed GPU models: MIG and vGPU unavailable)") : QString()));
    loadSharing(first.sharing);
}

void Inspector::loadSharing(const SharingConfig& sharing)
{
    {
        QSignalBlocker block(mMode);
        const int index = mMode->findData(static_cast<int>(sharing.mode));
        mMode->setCurrentIndex(index >= 0 ? index : 0);
    }
    rebuildChoices();
    QSignalBlocker b1(mAmount), b2(mChoice);
    if (sharing.mode == SharingMode::TimeSlicing)
        mAmount->setValue(sharing.replicas);
    else if (sharing.mode == SharingMode::Mps)
        mAmount->setValue(sharing.mpsActiveThreadPct);
    else if (sharing.mode == SharingMode::Vgpu)
        mChoice->setCurrentIndex(std::max(0, mChoice->findData(QString::fromStdString(sharing.vgpuProfile))));
    else if (sharing.mode == SharingMode::Mig && !sharing.migInstances.empty()) {
        mMigLayout = sharing.migInstances; // the layout as it is, editable
        const auto preset = std::find(mLayouts.begin(), mLayouts.end(), mMigLayout);
        mChoice->setCurrentIndex(preset == mLayouts.end() ? -1 : static_cast<int>(preset - mLayouts.begin()));
        refreshMigEditor();
    }
    revalidate();
}

void Inspector::rebuildChoices()
{
    const auto mode = static_cast<SharingMode>(mMode->currentData().toInt());
    QSignalBlocker b1(mAmount), b2(mChoice);
    mChoice->clear();
    mLayouts.clear();
    mAmount->setEnabled(mode == SharingMode::TimeSlicing || mode == SharingMode::Mps);
    if (mode == SharingMode::TimeSlicing) {
        mAmount->setRange(1, 64);
        mAmount->setSuffix(tr(" replicas"));
        mAmount->setValue(4);
    } else if (mode == SharingMode::Mps) {
        mAmount->setRange(1, 100);
        mAmount->setSuffix(tr(" % threads"));
        mAmount->setValue(50);
    } else {
        mAmount->setSuffix(QString());
    }
    if (mode == SharingMode::Mig && mGpu) {
        // Only layouts the MIG placement rules allow, maximal ones (nothing more fits) first.
        // Bounded (limits::kMaxMigLayouts): a user catalog with many small profiles has millions.
        mig::Enumeration found =
            mig::enumerateBounded(*mGpu, {}, true, limits::kMaxMigLayouts, limits::kMaxMigSearchSteps);
        mLayouts = std::move(found.layouts);
        for (const auto& layout : mLayouts)
            mChoice->addItem(describe(layout));
        mChoice->setToolTip(
            found.truncated
                ? tr("The first %1 layouts: %2").arg(mLayouts.size()).arg(QString::fromStdString(found.limitReason))
                : QString());
    } else if (mode == SharingMode::Vgpu && mGpu) {
        for (const auto& p : mGpu->vgpuProfiles)
            mChoice->addItem(tr("%1 (%2 GiB, %3 per GPU)")
                                 .arg(QString::fromStdString(p.name))
                                 .arg(p.framebufferGiB)
                                 .arg(p.maxPerGpu),
                             QString::fromStdString(p.name));
    }
    mChoice->setEnabled(mChoice->count() > 0);
    mMigLayout = mLayouts.empty() ? std::vector<MigInstance>{} : mLayouts.front();
    mMigBox->setVisible(mode == SharingMode::Mig && mGpu);
    refreshMigEditor();
    revalidate();
}

void Inspector::refreshMigEditor()
{
    mMigView->setGpu(mGpu);
    mMigView->setInstances(mMigLayout);
    const QString current = mAddProfile->currentText();
    {
        QSignalBlocker block(mAddProfile);
        mAddProfile->clear();
        mAddProfile->addItems(addableProfiles());
        const int keep = mAddProfile->findText(current);
        mAddProfile->setCurrentIndex(keep >= 0 ? keep : 0);
    }
    refreshStarts();
    mAddProfile->setEnabled(mAddProfile->count() > 0);
    mAdd->setEnabled(mAddStart->count() > 0);
    mRemove->setEnabled(!mMigLayout.empty());
}

void Inspector::refreshStarts()
{
    QSignalBlocker block(mAddStart);
    mAddStart->clear();
    for (int start : startsFor(mAddProfile->currentText()))
        mAddStart->addItem(QString::number(start), start);
    mAdd->setEnabled(mAddStart->count() > 0);
}

QList<int> Inspector::startsFor(const QString& profile) const
{
    QList<int> out;
    if (!mGpu)
        return out;
    for (const MigProfile& p : mGpu->migProfiles) {
        if (QString::fromStdString(p.name) != profile)
            continue;
        for (int start : p.startSlices) {
            std::vector<MigInstance> candidate = mMigLayout;
            candidate.push_back({p.name, start});
            if (mig::check(*mGpu, candidate).empty())
                out << start;
        }
    }
    return out;
}

QStringList Inspector::addableProfiles() const
{
    QStringList out;
    if (mGpu)
        for (const MigProfile& p : mGpu->migProfiles)
            if (!startsFor(QString::fromStdString(p.name)).isEmpty())
                out << QString::fromStdString(p.name);
    return out;
}

bool Inspector::addInstance(const QString& profile, int start)
{
    if (!startsFor(profile).contains(start))
        return false;
    mMigLayout.push_back({profile.toStdString(), start});
    std::sort(mMigLayout.begin(), mMigLayout.end(),
              [](const MigInstance& a, const MigInstance& b) { return a.start < b.start; });
    QSignalBlocker block(mChoice);
    const auto preset = std::find(mLayouts.begin(), mLayouts.end(), mMigLayout);
    mChoice->setCurrentIndex(preset == mLayouts.end() ? -1 : static_cast<int>(preset - mLayouts.begin()));
    refreshMigEditor();
    revalidate();
    return true;
}

bool Inspector::moveInstance(int index, int start)
{
    if (index < 0 || index >= static_cast<int>(mMigLayout.size()))
        return false;
    const std::vector<MigInstance> before = mMigLayout;
    const QString profile = QString::fromStdString(mMigLayout[static_cast<std::size_t>(index)].profile);
    mMigLayout.erase(mMigLayout.begin() + index);
    if (!startsFor(profile).contains(start)) {
        mMigLayout = before;
        return false;
    }
    return addInstance(profile, start);
}

void Inspector::removeInstance(int index)
{
    if (index < 0 || index >= static_cast<int>(mMigLayout.size()))
        return;
    mMigLayout.erase(mMigLayout.begin() + index);
    QSignalBlocker block(mChoice);
    mChoice->setCurrentIndex(-1);
    refreshMigEditor();
    revalidate();
}

SharingConfig Inspector::sharing() const
{
    SharingConfig c;
    c.mode = static_cast<SharingMode>(mMode->currentData().toInt());
    switch (c.mode) {
    case SharingMode::TimeSlicing: c.replicas = mAmount->value(); break;
    case SharingMode::Mps: c.mpsActiveThreadPct = mAmount->value(); break;
    case SharingMode::Mig: c.migInstances = mMigLayout; break;
    case SharingMode::Vgpu: c.vgpuProfile = mChoice->currentData().toString().toStdString(); break;
    case SharingMode::Exclusive:
    case SharingMode::Passthrough: break;
    }
    return c;
}

void Inspector::revalidate()
{
    const SharingConfig c = sharing();
    Issues issues;
    if (mGpu)
        issues = validateSharing(c, *mGpu, "sharing");
    else if (c.mode == SharingMode::Mig || c.mode == SharingMode::Vgpu)
        issues.push_back(Issue::error("sharing.mode", "the selection mixes GPU models; set MIG or vGPU per model"));
    QStringList lines;
    for (const auto& i : issues)
        lines << QString::fromStdString(i.toString());
    const int gpu = mGpuChoice->currentData().toInt();
    mMessage->setText(!lines.isEmpty() ? lines.join('\n')
                      : gpu >= 0       ? tr("Valid for GPU %1.").arg(gpu)
                                       : tr("Valid for %n node(s).", nullptr, static_cast<int>(mIds.size())));
    mMessage->setStyleSheet(hasErrors(issues) ? QStringLiteral("color: #c0392b") : QString());
    mApply->setEnabled(!mIds.isEmpty() && !hasErrors(issues));
}

QString Inspector::message() const { return mMessage->text(); }
bool Inspector::canApply() const { return mApply->isEnabled(); }

void Inspector::apply()
{
    if (!canApply())
        return;
    const int gpu = mGpuChoice->currentData().toInt();
    if (gpu >= 0 && mIds.size() == 1)
        Q_EMIT applyGpuRequested(mIds.front(), gpu, sharing());
    else
        Q_EMIT applyRequested(mIds, sharing());
}

void Inspector::chooseGpu(int gpuIndex) { mGpuChoice->setCurrentIndex(std::max(0, mGpuChoice->findData(gpuIndex))); }

void Inspector::choose(SharingMode mode, int amount, int layoutIndex)
{
    mMode->setCurrentIndex(mMode->findData(static_cast<int>(mode)));
    if (amount > 0)
        mAmount->setValue(amount);
    if (layoutIndex >= 0 && layoutIndex < mChoice->count())
        mChoice->setCurrentIndex(layoutIndex);
    revalidate();
}

} // namespace gp::ui
