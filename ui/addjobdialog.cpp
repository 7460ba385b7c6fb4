// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "addjobdialog.h"

#include "model/enumnames.h"
#include "model/validation.h"

#include <QCheckBox>
#include <QComboBox>
#include <QGroupBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>

#include <set>

namespace gp::ui {

AddJobDialog::AddJobDialog(const Catalog& catalog, const Scenario& scenario, QWidget* parent)
    : QDialog(parent), mCatalog(catalog), mScenario(scenario), mTenant(new QComboBox(this)),
      mNewTenant(new QLineEdit(this)), mPreset(new QComboBox(this)), mKind(new QComboBox(this)),
      mTp(new QSpinBox(this)), mPp(new QSpinBox(this)), mDp(new QSpinBox(this)), mAmount(new QDoubleSpinBox(this)),
      mMessage(new QLabel(this)), mOk(nullptr), mCustomBox(new QGroupBox(tr("Custom model shape"), this)),
      mLayers(new QSpinBox(mCustomBox)), mHidden(new QSpinBox(mCustomBox)), mHeads(new QSpinBox(mCustomBox)),
      mKvHeads(new QSpinBox(mCustomBox)), mFfn(new QSpinBox(mCustomBox)), mVocab(new QSpinBox(mCustomBox)),
      mSeq(new QSpinBox(mCustomBox)), mExperts(new QSpinBox(mCustomBox)), mActive(new QSpinBox(mCustomBox)),
      mGated(new QCheckBox(tr("Gated FFN (SwiGLU: three matrices)"), mCustomBox)),
      mDropout(new QCheckBox(tr("Dropout (masks kept for backward, GPT-3 style)"), mCustomBox))
{
    setWindowTitle(tr("Add Job"));
    for (const Tenant& t : scenario.tenants)
        mTenant->addItem(QString::fromStdString(t.name), QString::fromStdString(t.id));
    mTenant->addItem(tr("New tenant…"), QString());
    mNewTenant->setPlaceholderText(tr("Name of the new tenant"));
    for (const ModelPreset& m : catalog.models)
        mPreset->addItem(QString::fromStdString(m.name), QString::fromStdString(m.id));
    mPreset->addItem(tr("Custom model…"), QString());
    {
        auto* shape = new QFormLayout(mCustomBox);
        auto add = [&](QSpinBox* box, const QString& label, int max) {
            box->setRange(0, max);
            shape->addRow(label, box);
            connect(box, &QSpinBox::valueChanged, this, [this] { revalidate(); });
        };
        add(mLayers, tr("Layers"), 100000);
        add(mHidden, tr("Hidden size"), 10000000);
        add(mHeads, tr("Attention heads"), 100000);
        add(mKvHeads, tr("KV heads"), 100000);
        add(mFfn, tr("FFN hidden size"), 100000000);
        add(mVocab, tr("Vocabulary"), 100000000);
        add(mSeq, tr("Sequence length"), 100000000);
        add(mExperts, tr("Experts"), 4096);
        add(mActive, tr("Active experts"), 4096);
        shape->addRow(mGated);
        shape->addRow(mDropout);
        for (QCheckBox* c : {mGated, mDropout})
            connect(c, &QCheckBox::toggled, this, [this] { revalidate(); });
        if (!catalog.models.empty())
            showArchitecture(catalog.models.front().arch);
        mCustomBox->hide();
    }
    for (const auto& [kind, name] : EnumNames<JobKind>::table)
        mKind->addItem(QString::fromStdString(std::string(name)), static_cast<int>(kind));
    for (QSpinBox* s : {mTp, mPp, mDp}) {
        s->setRange(1, 4096);
        s->setValue(1);
    }
    mAmount->setRange(0.001, 1e6);
    mAmount->setValue(10.0);
    mMessage->setWordWrap(true);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    mOk = buttons->button(QDialogButtonBox::Ok);
    auto* form = new QFormLayout(this);
    form->addRow(tr("Tenant"), mTenant);
    form->addRow(QString(), mNewTenant);
    form->addRow(tr("Model"), mPreset);
    form->addRow(mCustomBox);
    form->addRow(tr("Kind"), mKind);
    form->addRow(tr("Tensor parallel"), mTp);
    form->addRow(tr("Pipeline parallel"), mPp);
    form->addRow(tr("Data parallel"), mDp);
    form->addRow(tr("Tokens (billions) / requests per s"), mAmount);
    form->addRow(mMessage);
    form->addRow(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    for (QComboBox* c : {mTenant, mKind})
        connect(c, &QComboBox::currentIndexChanged, this, [this] { revalidate(); });
    connect(mPreset, &QComboBox::currentIndexChanged, this, [this] {
        const QString id = mPreset->currentData().toString();
        if (const ModelPreset* m = mCatalog.model(id.toStdString()))
            showArchitecture(m->arch); // a custom model starts from the last preset's shape
        mCustomBox->setVisible(id.isEmpty());
        adjustSize();
        revalidate();
    });
    for (QSpinBox* s : {mTp, mPp, mDp})
        connect(s, &QSpinBox::valueChanged, this, [this] { revalidate(); });
    connect(mAmount, &QDoubleSpinBox::valueChanged, this, [this] { revalidate(); });
    connect(mNewTenant, &QLineEdit::textChanged, this, [this] { revalidate(); });
    revalidate();
}

Scenario AddJobDialog::result() const
{
    Scenario s = mScenario;
    std::set<std::string> ids;
    for (const Tenant& t : s.tenants) {
        ids.insert(t.id);
        for (const Job& j : t.jobs)
            ids.insert(j.id);
    }
    auto fresh = [&](const std::string& base) {
        std::string id = base;
        for (int i = 2; ids.count(id); ++i)
            id = base + "-" + std::to_string(i);
        ids.insert(id);
        return id;
    };
    Tenant* tenant = nullptr;
    const QString tenantId = mTenant->currentData().toString();
    for (Tenant& t : s.tenants)
        if (QString::fromStdString(t.id) == tenantId && !tenantId.isEmpty())
            tenant = &t;
    if (!tenant) {
        Tenant t;
        t.name = mNewTenant->text().trimmed().toStdString();
        t.id = fresh(t.name.empty() ? "tenant" : QString::fromStdString(t.name).toLower().replace(' ', '-').toStdString());
        static const char* palette[] = {"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1"};
        t.color = palette[s.tenants.size() % 7];
        s.tenants.push_back(t);
        tenant = &s.tenants.back();
    }
    Job* existing = nullptr;
    for (Job& j : tenant->jobs)
        if (!mEditJob.empty() && j.id == mEditJob)
            existing = &j;
    Job j = existing ? *existing : Job{};
    const Job before = j;
    j.model.preset = mPreset->currentData().toString().toStdString();
    j.model.custom = j.model.preset.empty() ? customArchitecture() : ModelArchitecture{};
    j.kind = static_cast<JobKind>(mKind->currentData().toInt());
    if (!existing) {
        const std::string model = j.model.preset.empty() ? std::string("custom") : j.model.preset;
        j.id = fresh(model + "-" + std::string(enumName(j.kind)));
        j.name = (j.model.preset.empty() ? std::string("Custom model") : mPreset->currentText().toStdString()) + " " +
                 std::string(enumName(j.kind));
        if (!mPinNode.empty())
            j.pin = Pin{mPinNode, std::nullopt, std::nullopt};
    }
    if (!existing) { // an added job gets defaults for what the dialog does not ask
        j.parallelism = {mTp->value(), mPp->value(), mDp->value(), 0, false, mTp->value() > 1 && j.kind != JobKind::Inference,
                         j.kind == JobKind::Inference ? Recompute::None : Recompute::Selective};
        j.batch = {1, mDp->value() * std::max(8, mPp->value() * 4)};
    } else { // an edited one keeps its ZeRO stage, recomputation and per-replica batch
        j.parallelism.tp = mTp->value();
        j.parallelism.pp = mPp->value();
        j.parallelism.dp = mDp->value();
        if (before.parallelism.dp != j.parallelism.dp)
            j.batch.global = std::max(1, before.batch.global / std::max(1, before.parallelism.dp)) * j.parallelism.dp;
    }
    if (j.kind == JobKind::Inference) {
        j.training.reset();
        if (!j.inference) {
            j.inference = InferenceSpec{mAmount->value(), 4096, 256, 16};
            j.inference->inputTokens = 1024; // a chat prompt; the context admits up to 4,096 tokens
        }
        j.inference->requestsPerS = mAmount->value();
    } else {
        j.inference.reset();
        if (!j.training)
            j.training = TrainingSpec{mAmount->value() * 1e9, 60.0};
        j.training->tokens = mAmount->value() * 1e9;
    }
    if ((j.kind == JobKind::Lora || j.kind == JobKind::Qlora) && !j.lora)
        j.lora = LoraSpec{16, 32};
    if (existing)
        *existing = j;
    else
        tenant->jobs.push_back(j);
    return s;
}

void AddJobDialog::editJob(const std::string& jobId)
{
    for (const Tenant& t : mScenario.tenants)
        for (const Job& j : t.jobs)
            if (j.id == jobId) {
                mEditJob = jobId;
                setWindowTitle(tr("Edit Job %1").arg(QString::fromStdString(j.name)));
                mTenant->setCurrentIndex(mTenant->findData(QString::fromStdString(t.id)));
                mTenant->setEnabled(false);
                mNewTenant->hide();
                mPreset->setCurrentIndex(mPreset->findData(QString::fromStdString(j.model.preset)));
                if (j.model.preset.empty())
                    showArchitecture(j.model.custom);
                mKind->setCurrentIndex(mKind->findData(static_cast<int>(j.kind)));
                mTp->setValue(j.parallelism.tp);
                mPp->setValue(j.parallelism.pp);
                mDp->setValue(j.parallelism.dp);
                if (j.inference)
                    mAmount->setValue(j.inference->requestsPerS);
                else if (j.training)
                    mAmount->setValue(j.training->tokens / 1e9);
                revalidate();
                return;
            }
}

void AddJobDialog::revalidate()
{
    const bool newTenant = mTenant->currentData().toString().isEmpty();
    mNewTenant->setEnabled(newTenant);
    QStringList problems;
    if (newTenant && mNewTenant->text().trimmed().isEmpty())
        problems << tr("Name the new tenant.");
    for (const Issue& i : validateScenario(result(), mCatalog))
        if (i.isError())
            problems << QString::fromStdString(i.toString());
    mMessage->setText(problems.isEmpty() ? tr("The job is valid.") : problems.join('\n'));
    mMessage->setStyleSheet(problems.isEmpty() ? QString() : QStringLiteral("color: #c0392b"));
    if (mOk)
        mOk->setEnabled(problems.isEmpty());
}

ModelArchitecture AddJobDialog::customArchitecture() const
{
    ModelArchitecture a;
    a.layers = mLayers->value();
    a.hiddenSize = mHidden->value();
    a.attentionHeads = mHeads->value();
    a.kvHeads = mKvHeads->value();
    a.ffnHiddenSize = mFfn->value();
    a.vocabSize = mVocab->value();
    a.sequenceLength = mSeq->value();
    a.experts = mExperts->value();
    a.activeExperts = mActive->value();
    a.gatedFfn = mGated->isChecked();
    a.dropout = mDropout->isChecked();
    return a;
}

void AddJobDialog::showArchitecture(const ModelArchitecture& a)
{
    const QSignalBlocker blocks[] = {QSignalBlocker(mLayers), QSignalBlocker(mHidden), QSignalBlocker(mHeads),
                                     QSignalBlocker(mKvHeads), QSignalBlocker(mFfn), QSignalBlocker(mVocab),
                                     QSignalBlocker(mSeq), QSignalBlocker(mExperts), QSignalBlocker(mActive),
                                     QSignalBlocker(mGated), QSignalBlocker(mDropout)};
    mLayers->setValue(a.layers);
    mHidden->setValue(a.hiddenSize);
    mHeads->setValue(a.attentionHeads);
    mKvHeads->setValue(a.kvHeads);
    mFfn->setValue(a.ffnHiddenSize);
    mVocab->setValue(a.vocabSize);
    mSeq->setValue(a.sequenceLength);
    mExperts->setValue(a.experts);
    mActive->setValue(a.activeExperts);
    mGated->setChecked(a.gatedFfn);
    mDropout->setChecked(a.dropout);
}

void AddJobDialog::setCustom(const ModelArchitecture& arch)
{
    mPreset->setCurrentIndex(mPreset->findData(QString()));
    showArchitecture(arch);
    revalidate();
}

void AddJobDialog::preselect(const QString& preset, const std::string& pinNode)
{
    const int index = mPreset->findData(preset);
    if (index >= 0)
        mPreset->setCurrentIndex(index);
    if (mEditJob.empty())
        mPinNode = pinNode;
    revalidate();
}

QString AddJobDialog::message() const { return mMessage->text(); }
bool AddJobDialog::valid() const { return mOk && mOk->isEnabled(); }

void AddJobDialog::set(const QString& tenantName, const QString& preset, JobKind kind, int tp, int pp, int dp)
{
    const int t = mTenant->findText(tenantName);
    mTenant->setCurrentIndex(t >= 0 ? t : mTenant->count() - 1);
    if (t < 0)
        mNewTenant->setText(tenantName);
    mPreset->setCurrentIndex(mPreset->findData(preset));
    mKind->setCurrentIndex(mKind->findData(static_cast<int>(kind)));
    mTp->setValue(tp);
    mPp->setValue(pp);
    mDp->setValue(dp);
    revalidate();
}

} // namespace gp::ui
