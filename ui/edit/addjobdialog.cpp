// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "addjobdialog.h"
#include "model/units.h"

#include "calc/evaluate.h"
#include "document/commands.h"
#include "model/enumnames.h"
#include "model/format.h"
#include "model/validation.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>

#include <map>
#include <set>

namespace gp::ui {

AddJobDialog::AddJobDialog(const Catalog& catalog, const Scenario& scenario, QWidget* parent)
    : QDialog(parent), mCatalog(catalog), mScenario(scenario), mTenant(new QComboBox(this)),
      mNewTenant(new QLineEdit(this)), mPreset(new QComboBox(this)), mKind(new QComboBox(this)),
      mTp(new QSpinBox(this)), mPp(new QSpinBox(this)), mDp(new QSpinBox(this)), mAmount(new QDoubleSpinBox(this)),
      mAmountLabel(new QLabel(this)), mMessage(new QLabel(this)), mObjectivesLabel(new QLabel(tr("Objectives"), this)),
      mObjectives(new QComboBox(this)), mOk(nullptr), mCustomBox(new QGroupBox(tr("Custom model shape"), this)),
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
        mKind->addItem(QString::fromStdString(std::string(displayName(kind))), static_cast<int>(kind));
    // Named for tests and accessibility tools; the labels are translated.
    mKind->setObjectName("addJobKind");
    mAmount->setObjectName("addJobAmount");
    mMessage->setObjectName("addJobMessage");
    mTp->setObjectName("addJobTp");
    mPp->setObjectName("addJobPp");
    mDp->setObjectName("addJobDp");
    mPreset->setObjectName("addJobModel");
    mTenant->setObjectName("addJobTenant");
    mObjectives->setObjectName("addJobObjectives");
    fillObjectives();
    connect(mTenant, &QComboBox::currentIndexChanged, this, [this] { fillObjectives(); });
    connect(mObjectives, &QComboBox::currentIndexChanged, this, [this] { revalidate(); });
    for (QSpinBox* s : {mTp, mPp, mDp}) {
        s->setRange(1, 4096);
        s->setValue(1);
    }
    mAmount->setRange(0.001, 1e6);
    mAmount->setValue(10.0);
    mMessage->setWordWrap(true);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    mOk = buttons->button(QDialogButtonBox::Ok);
    mOk->setObjectName("addJobOk");
    auto* form = new QFormLayout(this);
    form->addRow(tr("Tenant"), mTenant);
    form->addRow(QString(), mNewTenant);
    form->addRow(tr("Model"), mPreset);
    form->addRow(mCustomBox);
    form->addRow(tr("Kind"), mKind);
    form->addRow(tr("Tensor parallel"), mTp);
    form->addRow(tr("Pipeline parallel"), mPp);
    form->addRow(tr("Data parallel"), mDp);
    form->addRow(mAmountLabel, mAmount);
    form->addRow(mObjectivesLabel, mObjectives);
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

document::JobRequest AddJobDialog::request() const
{
    document::JobRequest r;
    r.tenantId = mTenant->currentData().toString().toStdString();
    r.newTenantName = mNewTenant->text().trimmed().toStdString();
    r.preset = mPreset->currentData().toString().toStdString();
    if (r.preset.empty())
        r.custom = customArchitecture();
    r.kind = static_cast<JobKind>(mKind->currentData().toInt());
    r.tp = mTp->value();
    r.pp = mPp->value();
    r.dp = mDp->value();
    r.amount = mAmount->value();
    r.pinNode = mPinNode;
    return r;
}

Result<document::Edit> AddJobDialog::edit() const
{
    return withObjectives(mEditJob.empty() ? document::addJob(mScenario, mCatalog, request())
                                           : document::editJob(mScenario, mCatalog, mEditJob, request()));
}

Scenario AddJobDialog::result() const { return resultOf(edit()); }

Scenario AddJobDialog::resultOf(const Result<document::Edit>& e) const
{
    Scenario s = mScenario;
    if (e.ok())
        document::applyEdit(s, *e.value, true);
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
    const bool serving = static_cast<JobKind>(mKind->currentData().toInt()) == JobKind::Inference;
    mAmountLabel->setText(serving ? tr("Requests per second") : tr("Tokens to train (billions)"));
    mObjectivesLabel->setVisible(serving);
    mObjectives->setVisible(serving);
    // Only when the kind changes: setting it re-formats the text, which would undo what the
    // user is typing ("0" becomes "0.00" and the ".5" that follows is refused).
    if (const QString suffix = serving ? tr(" req/s") : tr(" B tokens"); mAmount->suffix() != suffix)
        mAmount->setSuffix(suffix);
    const Result<document::Edit> e = edit();
    QStringList problems;
    for (const Issue& i : e.issues)
        if (i.isError()) // in the form's words: it has no JSON paths to point at
            problems << (i.path.size() >= 5 && i.path.compare(i.path.size() - 5, 5, ".name") == 0 && newTenant
                             ? tr("Name the new tenant.")
                             : fieldLabel(i.path) + QString::fromStdString(i.message));
    QString text = problems.join('\n');
    bool fits = true;
    if (problems.isEmpty()) {
        const Scenario after = resultOf(e);
        const std::optional<QString> estimate = memoryEstimate(after, fits);
        text = estimate ? *estimate : tr("The job is valid.");
        if (fits)
            if (const std::optional<QString> serving = servingEstimate(after, fits))
                text += "\n" + *serving;
    }
    mMessage->setText(text);
    mMessage->setStyleSheet(!problems.isEmpty() ? QStringLiteral("color: #c0392b")
                            : !fits             ? QStringLiteral("color: #b9770e")
                                                : QString());
    if (mOk) {
        mOk->setEnabled(problems.isEmpty());
        // A job that no GPU holds can still be added (to plan the hardware around it).
        mOk->setText(fits ? tr("OK") : tr("Add Anyway"));
    }
}

QString AddJobDialog::fieldLabel(const std::string& path)
{
    // The last key of the path names the field; the labels are the form's own.
    const std::string key = path.substr(path.find_last_of('.') == std::string::npos ? 0 : path.find_last_of('.') + 1);
    static const std::map<std::string, const char*> labels = {
        {"layers", QT_TR_NOOP("Layers")},
        {"hidden_size", QT_TR_NOOP("Hidden size")},
        {"attention_heads", QT_TR_NOOP("Attention heads")},
        {"kv_heads", QT_TR_NOOP("KV heads")},
        {"ffn_hidden_size", QT_TR_NOOP("FFN hidden size")},
        {"vocab_size", QT_TR_NOOP("Vocabulary")},
        {"sequence_length", QT_TR_NOOP("Sequence length")},
        {"experts", QT_TR_NOOP("Experts")},
        {"active_experts", QT_TR_NOOP("Active experts")},
        {"tp", QT_TR_NOOP("Tensor parallel")},
        {"pp", QT_TR_NOOP("Pipeline parallel")},
        {"dp", QT_TR_NOOP("Data parallel")},
        {"tokens", QT_TR_NOOP("Tokens to train")},
        {"requests_per_s", QT_TR_NOOP("Requests per second")},
    };
    const auto it = labels.find(key);
    return it == labels.end() ? QString() : tr(it->second) + ": ";
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
    const QSignalBlocker blocks[] = {QSignalBlocker(mLayers),  QSignalBlocker(mHidden),  QSignalBlocker(mHeads),
                                     QSignalBlocker(mKvHeads), QSignalBlocker(mFfn),     QSignalBlocker(mVocab),
                                     QSignalBlocker(mSeq),     QSignalBlocker(mExperts), QSignalBlocker(mActive),
                                     QSignalBlocker(mGated),   QSignalBlocker(mDropout)};
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
