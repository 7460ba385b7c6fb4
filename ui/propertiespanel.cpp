// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "propertiespanel.h"
#include "io/textformat.h"

#include "model/enumnames.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

#include <cmath>
#include <set>

namespace gp::ui {

namespace {

using text::q;

template <typename E> QStringList enumItems()
{
    QStringList out;
    for (const auto& [value, name] : EnumNames<E>::table)
        out << QString::fromLatin1(name.data(), static_cast<qsizetype>(name.size()));
    return out;
}

template <typename E> QString nameOf(E value)
{
    const std::string_view n = enumName(value);
    return QString::fromLatin1(n.data(), static_cast<qsizetype>(n.size()));
}

template <typename E> E valueOf(const QString& name, E fallback)
{
    return enumFromName<E>(name.toStdString()).value_or(fallback);
}

/// An integer field's value as JSON: a whole number, as the file writes it.
QJsonValue whole(double v) { return QJsonValue(static_cast<qint64>(std::llround(v))); }

} // namespace

PropertiesPanel::PropertiesPanel(const Catalog& catalog, QWidget* parent)
    : QWidget(parent), mCatalog(catalog), mTitle(new QLabel(this)), mFormHost(new QWidget(this)),
      mForm(new QFormLayout(mFormHost)), mMessage(new QLabel(this)),
      mApply(new QPushButton(tr("Apply Properties"), this))
{
    mApply->setObjectName("applyProperties");
    mMessage->setObjectName("propertiesMessage");
    mTitle->setWordWrap(true);
    mMessage->setWordWrap(true);
    mForm->setContentsMargins(0, 0, 0, 0);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(mTitle);
    layout->addWidget(mFormHost);
    layout->addWidget(mMessage);
    layout->addWidget(mApply);
    connect(mApply, &QPushButton::clicked, this, &PropertiesPanel::apply);
    clear();
}

void PropertiesPanel::clear(const QString& hint)
{
    mSubject = Subject::None;
    resetForm(hint);
}

void PropertiesPanel::resetForm(const QString& hint)
{
    mFields.clear();
    while (mForm->rowCount() > 0)
        mForm->removeRow(0);
    mTitle->setText(hint.isEmpty() ? tr("Select a node, switch or link on the canvas, or a tenant or job in the "
                                        "Workloads panel, to edit its properties.")
                                   : hint);
    mMessage->clear();
    mApply->setEnabled(false);
    mApply->setVisible(false);
}

void PropertiesPanel::begin(const Scenario& scenario, const QString& list, const QStringList& ids, const QString& title,
                            const QString& what)
{
    resetForm({});
    mBase = scenario;
    mList = list;
    mTargets = ids;
    mWhat = what;
    mTitle->setText(title);
    mApply->setVisible(true);
}

void PropertiesPanel::addRow(const QString& key, const QString& label, QWidget* editor, Value value)
{
    editor->setObjectName(key);
    mForm->addRow(label, editor);
    mFields.push_back({key, editor, std::move(value), false});
}

void PropertiesPanel::touch(std::size_t index)
{
    mFields[index].touched = true;
    revalidate();
}

void PropertiesPanel::addText(const QString& key, const QString& label, const std::string& value)
{
    auto* e = new QLineEdit(q(value), mFormHost);
    const std::size_t index = mFields.size();
    addRow(key, label, e, [e] { return QJsonValue(e->text().trimmed()); });
    connect(e, &QLineEdit::textEdited, this, [this, index] { touch(index); });
}

void PropertiesPanel::addInt(const QString& key, const QString& label, int value, int min, int max,
                             const QString& suffix)
{
    auto* e = new QSpinBox(mFormHost);
    e->setRange(min, max);
    e->setSuffix(suffix);
    e->setValue(value);
    const std::size_t index = mFields.size();
    addRow(key, label, e, [e] { return QJsonValue(e->value()); });
    connect(e, &QSpinBox::valueChanged, this, [this, index] { touch(index); });
}

QDoubleSpinBox* PropertiesPanel::addDouble(const QString& key, const QString& label, double value, double min,
                                           double max, int decimals, const QString& suffix,
                                           const NumberFieldOptions& opt)
{
    auto* e = new QDoubleSpinBox(mFormHost);
    e->setDecimals(decimals);
    e->setRange(min, max);
    e->setSuffix(suffix);
    e->setValue(value / opt.scale);
    if (!opt.zeroText.isEmpty())
        e->setSpecialValueText(opt.zeroText);
    const std::size_t index = mFields.size();
    addRow(key, label, e, [e, opt, decimals] {
        const double v = e->value() * opt.scale;
        if (opt.zeroIsNone && v <= 0)
            return QJsonValue(QJsonValue::Null); // removes the optional field
        return decimals == 0 && opt.scale == 1.0 ? whole(v) : QJsonValue(v);
    });
    connect(e, &QDoubleSpinBox::valueChanged, this, [this, index] { touch(index); });
    return e;
}

void PropertiesPanel::addBool(const QString& key, const QString& label, bool value)
{
    auto* e = new QCheckBox(mFormHost);
    e->setChecked(value);
    const std::size_t index = mFields.size();
    addRow(key, label, e, [e] { return QJsonValue(e->isChecked()); });
    connect(e, &QCheckBox::toggled, this, [this, index] { touch(index); });
}

QComboBox* PropertiesPanel::addChoice(const QString& key, const QString& label, const QStringList& items, int current,
                                      const std::vector<QJsonValue>& values)
{
    auto* e = new QComboBox(mFormHost);
    e->addItems(items);
    e->setCurrentIndex(current);
    const std::size_t index = mFields.size();
    addRow(key, label, e, [e, values] {
        const int i = e->currentIndex();
        return i >= 0 && static_cast<std::size_t>(i) < values.size() ? values[static_cast<std::size_t>(i)]
                                                                     : QJsonValue(e->currentText());
    });
    connect(e, &QComboBox::currentIndexChanged, this, [this, index] { touch(index); });
    return e;
}

template <typename E> QComboBox* PropertiesPanel::addEnum(const QString& key, const QString& label, E current)
{
    const QStringList items = enumItems<E>();
    std::vector<QJsonValue> values;
    for (const QString& item : items)
        values.emplace_back(item);
    return addChoice(key, label, items, static_cast<int>(items.indexOf(nameOf(current))), values);
}

void PropertiesPanel::refresh(const Scenario& scenario)
{
    const QStringList ids = mSubjectIds;
    switch (mSubject) {
    case Subject::Items: showItems(scenario, ids); break;
    case Subject::Tenant: showTenant(scenario, ids.value(0)); break;
    case Subject::Job: showJob(scenario, ids.value(0)); break;
    case Subject::None: break;
    }
}

void PropertiesPanel::rebase(const Scenario& scenario)
{
    mBase = scenario;
    revalidate();
}

void PropertiesPanel::showItems(const Scenario& s, const QStringList& ids)
{
    mSubject = Subject::Items;
    mSubjectIds = ids;
    std::set<std::string> wanted;
    for (const QString& id : ids)
        wanted.insert(id.toStdString());
    std::vector<const Node*> nodes;
    std::vector<const Switch*> switches;
    std::vector<const Link*> links;
    for (const Node& n : s.topology.nodes)
        if (wanted.count(n.id))
            nodes.push_back(&n);
    for (const Switch& w : s.topology.switches)
        if (wanted.count(w.id))
            switches.push_back(&w);
    for (const Link& l : s.topology.links)
        if (wanted.count(l.id))
            links.push_back(&l);
    if (!nodes.empty() || !switches.empty())
        links.clear(); // a rubber band catches the links between the boxes too: edit the boxes
    const int kinds = int(!nodes.empty()) + int(!switches.empty()) + int(!links.empty());
    if (kinds == 0)
        return clear();
    if (kinds > 1)
        return resetForm(tr("The selection mixes nodes and switches: select items of one kind to edit their "
                            "properties together."));

    auto plural = [](std::size_t n, const QString& one, const QString& many) { return n == 1 ? one : many.arg(n); };
    if (!nodes.empty()) {
        QStringList targets;
        for (const Node* n : nodes)
            targets << q(n->id);
        const Node& n = *nodes.front();
        begin(s, "nodes", targets,
              plural(nodes.size(), tr("<b>Node %1</b> (%2)").arg(q(n.id), q(n.templateId)), tr("<b>%1 nodes</b>")),
              plural(nodes.size(), tr("Edit node %1").arg(q(n.id)), tr("Edit %1 nodes")));
        if (nodes.size() == 1)
            addText("name", tr("Name"), n.name);
        addInt("nics.count", tr("NICs"), n.nics.count, 0, 64, QString());
        addDouble("nics.speed_gbps", tr("NIC speed"), n.nics.speedGbps, 0, 3200, 0, tr(" Gb/s"));
        addBool("nics.gpudirect_rdma", tr("GPUDirect RDMA"), n.nics.gpudirectRdma);
    } else if (!switches.empty()) {
        QStringList targets;
        for (const Switch* w : switches)
            targets << q(w->id);
        const Switch& w = *switches.front();
        begin(s, "switches", targets,
              plural(switches.size(), tr("<b>Switch %1</b> (%2)").arg(q(w.id), q(w.templateId)),
                     tr("<b>%1 switches</b>")),
              plural(switches.size(), tr("Edit switch %1").arg(q(w.id)), tr("Edit %1 switches")));
        if (switches.size() == 1)
            addText("name", tr("Name"), w.name);
        const QStringList tiers = {"leaf", "spine", "core"};
        addChoice("tier", tr("Tier"), tiers, static_cast<int>(tiers.indexOf(q(w.tier))),
                  {QJsonValue("leaf"), QJsonValue("spine"), QJsonValue("core")});
        addInt("ports", tr("Ports"), w.ports, 0, 4096, QString());
        addDouble("port_speed_gbps", tr("Port speed"), w.portSpeedGbps, 0, 3200, 0, tr(" Gb/s"));
    } else {
        QStringList targets;
        for (const Link* l : links)
            targets << q(l->id);
        const Link& l = *links.front();
        begin(
            s, "links", targets,
            plural(links.size(), tr("<b>Link %1</b>: %2 — %3").arg(q(l.id), q(l.from), q(l.to)), tr("<b>%1 links</b>")),
            plural(links.size(), tr("Edit link %1").arg(q(l.id)), tr("Edit %1 links")));
        addDouble("bandwidth_gbps", tr("Bandwidth"), l.bandwidthGbps, 0, 1e6, 0, tr(" Gb/s"));
        addDouble("latency_us", tr("Latency"), l.latencyUs, 0, 1e6, 2, tr(" µs"));
    }
    revalidate();
}

void PropertiesPanel::showTenant(const Scenario& s, const QString& tenantId)
{
    mSubject = Subject::Tenant;
    mSubjectIds = {tenantId};
    const Tenant* t = s.findTenant(tenantId.toStdString());
    if (!t)
        return clear();
    begin(s, "tenants", {tenantId},
          tr("<b>Tenant %1</b> — %n job(s)", nullptr, static_cast<int>(t->jobs.size())).arg(q(t->name).toHtmlEscaped()),
          tr("Edit tenant %1").arg(q(t->name)));
    addText("name", tr("Name"), t->name);
    addText("color", tr("Colour"), t->color);
    addInt("priority", tr("Priority"), t->priority, -1000, 1000, QString());
    addEnum("isolation", tr("Isolation"), t->isolation)
        ->setToolTip(tr("Where its jobs may run: none — any share; memory — only shares with memory of their own "
                        "(not time-slicing, not MPS without a memory limit); hardware — only whole GPUs and MIG "
                        "instances."));
    addDouble("sla.max_penalty_pct", tr("SLA: max penalty"), t->sla.maxPenaltyPct, 0, 1000, 1, tr(" %"));
    // Optional objectives: 0 = none (the field leaves the file).
    const NumberFieldOptions none{1.0, true, tr("none")};
    addDouble("sla.deadline_days", tr("SLA: deadline"), t->sla.deadlineDays.value_or(0.0), 0, 3650, 1, tr(" days"),
              none);
    addDouble("sla.ttft_p99_ms", tr("SLA: TTFT P99"), t->sla.ttftP99Ms.value_or(0.0), 0, 1e7, 0, tr(" ms"), none);
    addDouble("sla.itl_p99_ms", tr("SLA: ITL P99"), t->sla.itlP99Ms.value_or(0.0), 0, 1e7, 1, tr(" ms"), none);
    revalidate();
}

void PropertiesPanel::showJob(const Scenario& s, const QString& jobId)
{
    mSubject = Subject::Job;
    mSubjectIds = {jobId};
    const Job* j = s.findJob(jobId.toStdString());
    if (!j)
        return clear();
    begin(s, "jobs", {jobId},
          tr("<b>Job %1</b> — %2, %3 GPUs")
              .arg(q(j->name).toHtmlEscaped(), q(std::string(displayName(j->kind))))
              .arg(j->parallelism.gpus()),
          tr("Edit job %1").arg(q(j->name)));
    addText("name", tr("Name"), j->name);
    addEnum("precision", tr("Precision"), j->precision);
    // Attention kernels: unset follows the model (flash unless it keeps dropout masks).
    QComboBox* attention =
        addChoice("flash_attention", tr("Attention"), {tr("As the model"), tr("Flash"), tr("Unfused")},
                  !j->flashAttention   ? 0
                  : *j->flashAttention ? 1
                                       : 2,
                  {QJsonValue(QJsonValue::Null), QJsonValue(true), QJsonValue(false)});
    attention->setToolTip(tr("Fused (flash) attention keeps no s x s tensors and runs at the GPU's flash-attention "
                             "efficiency; unfused runs softmax and dropout over the scores (Megatron-LM before 2023). "
                             "\"As the model\": flash unless the model keeps dropout masks (GPT-3 era)."));
    addInt("batch.micro", tr("Micro-batch"), j->batch.micro, 0, 1000000, tr(" seq"));
    addInt("batch.global", tr("Global batch"), j->batch.global, 0, 1000000000, tr(" seq"));
    if (j->isTraining()) {
        addBool("main_grads_fp32", tr("fp32 main gradients"), j->mainGradsFp32);
        addInt("parallelism.zero_stage", tr("ZeRO stage"), j->parallelism.zeroStage, 0, 3, QString());
        addEnum("parallelism.recompute", tr("Recompute"), j->parallelism.recompute);
        addBool("parallelism.sequence_parallel", tr("Sequence parallel"), j->parallelism.sequenceParallel);
        addInt("parallelism.virtual_stages", tr("Virtual stages"), j->parallelism.virtualStages, 1, 1024, QString());
        if (j->training) {
            addDouble("training.tokens", tr("Tokens"), j->training->tokens, 0, 1e16, 3, tr(" billion"),
                      NumberFieldOptions{1e9, false, {}});
            addDouble("training.checkpoint_interval_min", tr("Checkpoint every"), j->training->checkpointIntervalMin, 0,
                      100000, 0, tr(" min"));
        }
        if (j->lora)
            addInt("lora.rank", tr("LoRA rank"), j->lora->rank, 0, 65536, QString());
    } else if (j->inference) {
        const InferenceSpec& in = *j->inference;
        QComboBox* load = addEnum("inference.load", tr("Load"), in.load);
        load->setToolTip(tr("closed: Concurrency users, each sending the next request when the last completes "
                            "(how AIPerf and vLLM's benchmarks measure); open: Poisson arrivals at Requests, "
                            "Concurrency the most sequences in flight"));
        addDouble("inference.requests_per_s", tr("Requests"), in.requestsPerS, 0, 1e7, 2, tr(" /s"));
        addDouble("inference.input_tokens", tr("Prompt"), in.promptTokens(), 0, 1e8, 0, tr(" tokens"));
        addDouble("inference.context_tokens", tr("Context"), in.contextTokens, 0, 1e8, 0, tr(" tokens"));
        addDouble("inference.output_tokens", tr("Output"), in.outputTokens, 0, 1e8, 0, tr(" tokens"));
        addDouble("inference.concurrency", tr("Concurrency"), in.concurrency, 0, 1e6, 0, tr(" seq"));
    }
    addDouble("schedule.arrival_h", tr("Arrives at"), j->schedule.arrivalH, 0, 1e6, 1, tr(" h"));
    addDouble("schedule.duration_h", tr("Runs for"), j->schedule.durationH, 0, 1e6, 1, tr(" h"),
              NumberFieldOptions{1.0, false, tr("until done")});
    revalidate();
}

QWidget* PropertiesPanel::field(const QString& key) const
{
    for (const Field& f : mFields)
        if (f.key == key)
            return f.editor;
    return nullptr;
}

QStringList PropertiesPanel::fieldKeys() const
{
    QStringList out;
    for (const Field& f : mFields)
        out << f.key;
    return out;
}

std::vector<document::FieldPatch> PropertiesPanel::patches() const
{
    std::vector<document::FieldPatch> out;
    for (const Field& f : mFields)
        if (f.touched)
            for (const QString& id : mTargets)
                out.push_back({(mList + "[" + id + "]." + f.key).toStdString(), f.value()});
    return out;
}

void PropertiesPanel::revalidate()
{
    const std::vector<document::FieldPatch> changes = patches();
    mPending = changes.empty() ? Result<document::Edit>{} : document::patchFields(mBase, mCatalog, changes);
    QStringList lines;
    for (const Issue& i : mPending.issues)
        if (i.isError())
            lines << QString::fromStdString(i.toString());
    const bool touched = !changes.empty();
    mMessage->setText(lines.isEmpty() ? (touched ? tr("Valid — Apply to change it (undoable).") : QString())
                                      : lines.join('\n'));
    mMessage->setStyleSheet(lines.isEmpty() ? QString() : QStringLiteral("color: #c0392b"));
    mApply->setEnabled(touched && mPending.ok());
}

QString PropertiesPanel::message() const { return mMessage->text(); }
bool PropertiesPanel::canApply() const { return mApply->isEnabled(); }

void PropertiesPanel::apply()
{
    if (!canApply())
        return;
    document::Edit edit = *mPending.value;
    if (edit.empty())
        return;
    edit.text = mWhat.toStdString();
    Q_EMIT editRequested(edit);
}

} // namespace gp::ui
