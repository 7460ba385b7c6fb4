#include "inspector.h"

#include "model/enumnames.h"
#include "model/miglayout.h"
#include "model/validation.h"

#include <QComboBox>
#include <QFormLayout>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>

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

} // namespace

Inspector::Inspector(const Catalog& catalog, QWidget* parent)
    : QWidget(parent), mCatalog(catalog), mTitle(new QLabel(this)), mMode(new QComboBox(this)),
      mAmount(new QSpinBox(this)), mChoice(new QComboBox(this)), mMessage(new QLabel(this)),
      mApply(new QPushButton(tr("Apply to Selection"), this))
{
    for (const auto& [mode, label] : kModes)
        mMode->addItem(label, static_cast<int>(mode));
    mMessage->setWordWrap(true);
    mTitle->setWordWrap(true);
    // MIG layouts have long names: keep the dock narrow, show them in full in the drop-down.
    mChoice->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    mChoice->setMinimumContentsLength(12);
    auto* form = new QFormLayout(this);
    form->addRow(mTitle);
    form->addRow(tr("Sharing"), mMode);
    form->addRow(tr("Amount"), mAmount);
    form->addRow(tr("Layout / profile"), mChoice);
    form->addRow(mMessage);
    form->addRow(mApply);
    connect(mMode, &QComboBox::currentIndexChanged, this, [this] { rebuildChoices(); });
    connect(mAmount, &QSpinBox::valueChanged, this, [this] { revalidate(); });
    connect(mChoice, &QComboBox::currentIndexChanged, this, [this] { revalidate(); });
    connect(mApply, &QPushButton::clicked, this, [this] {
        if (canApply())
            Q_EMIT applyRequested(mIds, sharing());
    });
    showNodes({}, {});
}

void Inspector::showNodes(const Scenario& scenario, const QStringList& ids)
{
    mIds.clear();
    mGpu = nullptr;
    bool mixed = false;
    const Node* first = nullptr;
    for (const Node& n : scenario.topology.nodes)
        if (ids.contains(QString::fromStdString(n.id))) {
            mIds << QString::fromStdString(n.id);
            const GpuSpec* g = mCatalog.gpu(n.gpuId);
            if (!first) {
                first = &n;
                mGpu = g;
            } else if (g != mGpu) {
                mixed = true;
            }
        }
    if (mixed)
        mGpu = nullptr;
    setEnabled(!mIds.isEmpty());
    if (mIds.isEmpty()) {
        mTitle->setText(tr("Select nodes on the canvas to edit how their GPUs are shared."));
        return;
    }
    mTitle->setText(mIds.size() == 1 ? tr("<b>%1</b> — %2 x %3").arg(mIds.front()).arg(first->gpuCount)
                                           .arg(mGpu ? QString::fromStdString(mGpu->name) : QString())
                                     : tr("<b>%1 nodes</b>%2").arg(mIds.size())
                                           .arg(mixed ? tr(" (mixed GPU models: MIG and vGPU unavailable)") : QString()));
    const int index = mMode->findData(static_cast<int>(first->sharing.mode));
    mMode->setCurrentIndex(index >= 0 ? index : 0);
    rebuildChoices();
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
        mLayouts = mig::enumerate(*mGpu, {}, true);
        for (const auto& layout : mLayouts) {
            QStringList parts;
            for (const auto& inst : layout)
                parts << QString("%1@%2").arg(QString::fromStdString(inst.profile)).arg(inst.start);
            mChoice->addItem(parts.join(" + "));
        }
    } else if (mode == SharingMode::Vgpu && mGpu) {
        for (const auto& p : mGpu->vgpuProfiles)
            mChoice->addItem(tr("%1 (%2 GiB, %3 per GPU)").arg(QString::fromStdString(p.name)).arg(p.framebufferGiB).arg(p.maxPerGpu),
                             QString::fromStdString(p.name));
    }
    mChoice->setEnabled(mChoice->count() > 0);
    revalidate();
}

SharingConfig Inspector::sharing() const
{
    SharingConfig c;
    c.mode = static_cast<SharingMode>(mMode->currentData().toInt());
    switch (c.mode) {
    case SharingMode::TimeSlicing: c.replicas = mAmount->value(); break;
    case SharingMode::Mps: c.mpsActiveThreadPct = mAmount->value(); break;
    case SharingMode::Mig:
        if (mChoice->currentIndex() >= 0 && mChoice->currentIndex() < static_cast<int>(mLayouts.size()))
            c.migInstances = mLayouts[static_cast<std::size_t>(mChoice->currentIndex())];
        break;
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
    mMessage->setText(lines.isEmpty() ? tr("Valid for %n node(s).", nullptr, static_cast<int>(mIds.size())) : lines.join('\n'));
    mMessage->setStyleSheet(hasErrors(issues) ? QStringLiteral("color: #c0392b") : QString());
    mApply->setEnabled(!mIds.isEmpty() && !hasErrors(issues));
}

QString Inspector::message() const { return mMessage->text(); }
bool Inspector::canApply() const { return mApply->isEnabled(); }

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
