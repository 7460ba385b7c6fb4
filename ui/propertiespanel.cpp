// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "propertiespanel.h"

#include "model/enumnames.h"
#include "model/validation.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

#include <set>

namespace gp::ui {

namespace {

QString q(const std::string& s) { return QString::fromStdString(s); }

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

Job* findJob(Scenario& s, const std::string& id)
{
    for (Tenant& t : s.tenants)
        for (Job& j : t.jobs)
            if (j.id == id)
                return &j;
    return nullptr;
}

Tenant* findTenant(Scenario& s, const std::string& id)
{
    for (Tenant& t : s.tenants)
        if (t.id == id)
            return &t;
    return nullptr;
}

/// Applies `fn` to every element of `items` whose id is in `ids`.
template <typename T, typename Fn> void forEachOf(std::vector<T>& items, const std::set<std::string>& ids, Fn fn)
{
    for (T& item : items)
        if (ids.count(item.id))
            fn(item);
}

} // namespace

PropertiesPanel::PropertiesPanel(const Catalog& catalog, QWidget* parent)
    : QWidget(parent), mCatalog(catalog), mTitle(new QLabel(this)), mFormHost(new QWidget(this)),
      mForm(new QFormLayout(mFormHost)), mMessage(new QLabel(this)),
      mApply(new QPushButton(tr("Apply Properties"), this))
{
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

void PropertiesPanel::begin(const Scenario& scenario, const QString& title, const QString& what)
{
    resetForm({});
    mBase = scenario;
    mWhat = what;
    mTitle->setText(title);
    mApply->setVisible(true);
}

void PropertiesPanel::addRow(const QString& label, QWidget* editor, Setter set)
{
    editor->setObjectName(label);
    mForm->addRow(label, editor);
    mFields.push_back({label, editor, std::move(set), false});
}

void PropertiesPanel::addText(const QString& label, const std::string& value,
                              std::function<void(Scenario&, const std::string&)> set)
{
    auto* e = new QLineEdit(q(value), mFormHost);
    const std::size_t index = mFields.size();
    addRow(label, e, [e, set = std::move(set)](Scenario& s) { set(s, e->text().trimmed().toStdString()); });
    connect(e, &QLineEdit::textEdited, this, [this, index] {
        mFields[index].touched = true;
        revalidate();
    });
}

void PropertiesPanel::addInt(const QString& label, int value, int min, int max, const QString& suffix,
                             std::function<void(Scenario&, int)> set)
{
    auto* e = new QSpinBox(mFormHost);
    e->setRange(min, max);
    e->setSuffix(suffix);
    e->setValue(value);
    const std::size_t index = mFields.size();
    addRow(label, e, [e, set = std::move(set)](Scenario& s) { set(s, e->value()); });
    connect(e, &QSpinBox::valueChanged, this, [this, index] {
        mFields[index].touched = true;
        revalidate();
    });
}

void PropertiesPanel::addDouble(const QString& label, double value, double min, double max, int decimals,
                                const QString& suffix, std::function<void(Scenario&, double)> set)
{
    auto* e = new QDoubleSpinBox(mFormHost);
    e->setDecimals(decimals);
    e->setRange(min, max);
    e->setSuffix(suffix);
    e->setValue(value);
    const std::size_t index = mFields.size();
    addRow(label, e, [e, set = std::move(set)](Scenario& s) { set(s, e->value()); });
    connect(e, &QDoubleSpinBox::valueChanged, this, [this, index] {
        mFields[index].touched = true;
        revalidate();
    });
}

void PropertiesPanel::addBool(const QString& label, bool value, std::function<void(Scenario&, bool)> set)
{
    auto* e = new QCheckBox(mFormHost);
    e->setChecked(value);
    const std::size_t index = mFields.size();
    addRow(label, e, [e, set = std::move(set)](Scenario& s) { set(s, e->isChecked()); });
    connect(e, &QCheckBox::toggled, this, [this, index] {
        mFields[index].touched = true;
        revalidate();
    });
}

void PropertiesPanel::addChoice(const QString& label, const QStringList& items, const QString& current,
                                std::function<void(Scenario&, const QString&)> set)
{
    auto* e = new QComboBox(mFormHost);
    e->addItems(items);
    e->setCurrentText(current);
    const std::size_t index = mFields.size();
    addRow(label, e, [e, set = std::move(set)](Scenario& s) { set(s, e->currentText()); });
    connect(e, &QComboBox::currentIndexChanged, this, [this, index] {
        mFields[index].touched = true;
        revalidate();
    });
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

    std::set<std::string> targets;
    auto plural = [](std::size_t n, const QString& one, const QString& many) { return n == 1 ? one : many.arg(n); };
    if (!nodes.empty()) {
        for (const Node* n : nodes)
            targets.insert(n->id);
        const Node& n = *nodes.front();
        begin(s, plural(nodes.size(), tr("<b>Node %1</b> (%2)").arg(q(n.id), q(n.templateId)), tr("<b>%1 nodes</b>")),
              plural(nodes.size(), tr("Edit node %1").arg(q(n.id)), tr("Edit %1 nodes")));
        if (nodes.size() == 1)
            addText(tr("Name"), n.name, [targets](Scenario& sc, const std::string& v) {
                forEachOf(sc.topology.nodes, targets, [&](Node& x) { x.name = v; });
            });
        addInt(tr("NICs"), n.nics.count, 0, 64, QString(), [targets](Scenario& sc, int v) {
            forEachOf(sc.topology.nodes, targets, [&](Node& x) { x.nics.count = v; });
        });
        addDouble(tr("NIC speed"), n.nics.speedGbps, 0, 3200, 0, tr(" Gb/s"), [targets](Scenario& sc, double v) {
            forEachOf(sc.topology.nodes, targets, [&](Node& x) { x.nics.speedGbps = v; });
        });
        addBool(tr("GPUDirect RDMA"), n.nics.gpudirectRdma, [targets](Scenario& sc, bool v) {
            forEachOf(sc.topology.nodes, targets, [&](Node& x) { x.nics.gpudirectRdma = v; });
        });
    } else if (!switches.empty()) {
        for (const Switch* w : switches)
            targets.insert(w->id);
        const Switch& w = *switches.front();
        begin(s,
              plural(switches.size(), tr("<b>Switch %1</b> (%2)").arg(q(w.id), q(w.templateId)),
                     tr("<b>%1 switches</b>")),
              plural(switches.size(), tr("Edit switch %1").arg(q(w.id)), tr("Edit %1 switches")));
        if (switches.size() == 1)
            addText(tr("Name"), w.name, [targets](Scenario& sc, const std::string& v) {
                forEachOf(sc.topology.switches, targets, [&](Switch& x) { x.name = v; });
            });
        addChoice(tr("Tier"), {"leaf", "spine", "core"}, q(w.tier), [targets](Scenario& sc, const QString& v) {
            forEachOf(sc.topology.switches, targets, [&](Switch& x) { x.tier = v.toStdString(); });
        });
        addInt(tr("Ports"), w.ports, 0, 4096, QString(), [targets](Scenario& sc, int v) {
            forEachOf(sc.topology.switches, targets, [&](Switch& x) { x.ports = v; });
        });
        addDouble(tr("Port speed"), w.portSpeedGbps, 0, 3200, 0, tr(" Gb/s"), [targets](Scenario& sc, double v) {
            forEachOf(sc.topology.switches, targets, [&](Switch& x) { x.portSpeedGbps = v; });
        });
    } else {
        for (const Link* l : links)
            targets.insert(l->id);
        const Link& l = *links.front();
        begin(
            s,
            plural(links.size(), tr("<b>Link %1</b>: %2 — %3").arg(q(l.id), q(l.from), q(l.to)), tr("<b>%1 links</b>")),
            plural(links.size(), tr("Edit link %1").arg(q(l.id)), tr("Edit %1 links")));
        addDouble(tr("Bandwidth"), l.bandwidthGbps, 0, 1e6, 0, tr(" Gb/s"), [targets](Scenario& sc, double v) {
            forEachOf(sc.topology.links, targets, [&](Link& x) { x.bandwidthGbps = v; });
        });
        addDouble(tr("Latency"), l.latencyUs, 0, 1e6, 2, tr(" µs"), [targets](Scenario& sc, double v) {
            forEachOf(sc.topology.links, targets, [&](Link& x) { x.latencyUs = v; });
        });
    }
    revalidate();
}

void PropertiesPanel::showTenant(const Scenario& s, const QString& tenantId)
{
    mSubject = Subject::Tenant;
    mSubjectIds = {tenantId};
    Scenario copy = s;
    const Tenant* t = findTenant(copy, tenantId.toStdString());
    if (!t)
        return clear();
    const std::string id = t->id;
    begin(s,
          tr("<b>Tenant %1</b> — %n job(s)", nullptr, static_cast<int>(t->jobs.size())).arg(q(t->name).toHtmlEscaped()),
          tr("Edit tenant %1").arg(q(t->name)));
    auto with = [id](auto fn) {
        return [id, fn](Scenario& sc, auto v) {
            if (Tenant* x = findTenant(sc, id))
                fn(*x, v);
        };
    };
    addText(tr("Name"), t->name, with([](Tenant& x, const std::string& v) { x.name = v; }));
    addText(tr("Colour"), t->color, with([](Tenant& x, const std::string& v) { x.color = v; }));
    addInt(tr("Priority"), t->priority, -1000, 1000, QString(), with([](Tenant& x, int v) { x.priority = v; }));
    addDouble(tr("SLA: max penalty"), t->sla.maxPenaltyPct, 0, 1000, 1, tr(" %"),
              with([](Tenant& x, double v) { x.sla.maxPenaltyPct = v; }));
    addDouble(tr("SLA: deadline"), t->sla.deadlineDays.value_or(0.0), 0, 3650, 1, tr(" days"),
              with([](Tenant& x, double v) { x.sla.deadlineDays = v > 0 ? std::optional<double>(v) : std::nullopt; }));
    if (auto* deadline = qobject_cast<QDoubleSpinBox*>(field(tr("SLA: deadline"))))
        deadline->setSpecialValueText(tr("none"));
    // Serving objectives on the 99th percentiles; 0 = none.
    addDouble(tr("SLA: TTFT P99"), t->sla.ttftP99Ms.value_or(0.0), 0, 1e7, 0, tr(" ms"),
              with([](Tenant& x, double v) { x.sla.ttftP99Ms = v > 0 ? std::optional<double>(v) : std::nullopt; }));
    addDouble(tr("SLA: ITL P99"), t->sla.itlP99Ms.value_or(0.0), 0, 1e7, 1, tr(" ms"),
              with([](Tenant& x, double v) { x.sla.itlP99Ms = v > 0 ? std::optional<double>(v) : std::nullopt; }));
    for (const QString& name : {tr("SLA: TTFT P99"), tr("SLA: ITL P99")})
        if (auto* box = qobject_cast<QDoubleSpinBox*>(field(name)))
            box->setSpecialValueText(tr("none"));
    revalidate();
}

void PropertiesPanel::showJob(const Scenario& s, const QString& jobId)
{
    mSubject = Subject::Job;
    mSubjectIds = {jobId};
    Scenario copy = s;
    const Job* j = findJob(copy, jobId.toStdString());
    if (!j)
        return clear();
    const std::string id = j->id;
    begin(s,
          tr("<b>Job %1</b> — %2, %3 GPUs").arg(q(j->name).toHtmlEscaped(), nameOf(j->kind)).arg(j->parallelism.gpus()),
          tr("Edit job %1").arg(q(j->name)));
    auto with = [id](auto fn) {
        return [id, fn](Scenario& sc, auto v) {
            if (Job* x = findJob(sc, id))
                fn(*x, v);
        };
    };
    addText(tr("Name"), j->name, with([](Job& x, const std::string& v) { x.name = v; }));
    addChoice(tr("Precision"), enumItems<Precision>(), nameOf(j->precision),
              with([](Job& x, const QString& v) { x.precision = valueOf(v, x.precision); }));
    // Attention kernels: unset follows the model (flash unless it keeps dropout masks).
    const QStringList attention = {tr("As the model"), tr("Flash"), tr("Unfused")};
    addChoice(tr("Attention"), attention,
              !j->flashAttention   ? attention[0]
              : *j->flashAttention ? attention[1]
                                   : attention[2],
              with([attention](Job& x, const QString& v) {
                  x.flashAttention = v == attention[1]   ? std::optional<bool>(true)
                                     : v == attention[2] ? std::optional<bool>(false)
                                                         : std::nullopt;
              }));
    if (auto* box = field(tr("Attention")))
        box->setToolTip(tr("Fused (flash) attention keeps no s x s tensors and runs at the GPU's flash-attention "
                           "efficiency; unfused runs softmax and dropout over the scores (Megatron-LM before 2023). "
                           "\"As the model\": flash unless the model keeps dropout masks (GPT-3 era)."));
    addInt(tr("Micro-batch"), j->batch.micro, 0, 1000000, tr(" seq"), with([](Job& x, int v) { x.batch.micro = v; }));
    addInt(tr("Global batch"), j->batch.global, 0, 1000000000, tr(" seq"),
           with([](Job& x, int v) { x.batch.global = v; }));
    if (j->isTraining()) {
        addBool(tr("fp32 main gradients"), j->mainGradsFp32, with([](Job& x, bool v) { x.mainGradsFp32 = v; }));
        addInt(tr("ZeRO stage"), j->parallelism.zeroStage, 0, 3, QString(),
               with([](Job& x, int v) { x.parallelism.zeroStage = v; }));
        addChoice(
            tr("Recompute"), enumItems<Recompute>(), nameOf(j->parallelism.recompute),
            with([](Job& x, const QString& v) { x.parallelism.recompute = valueOf(v, x.parallelism.recompute); }));
        addBool(tr("Sequence parallel"), j->parallelism.sequenceParallel,
                with([](Job& x, bool v) { x.parallelism.sequenceParallel = v; }));
        addInt(tr("Virtual stages"), j->parallelism.virtualStages, 1, 1024, QString(),
               with([](Job& x, int v) { x.parallelism.virtualStages = v; }));
        const TrainingSpec t = j->training.value_or(TrainingSpec{});
        addDouble(tr("Tokens"), t.tokens / 1e9, 0, 1e7, 3, tr(" billion"), with([](Job& x, double v) {
                      if (x.training)
                          x.training->tokens = v * 1e9;
                  }));
        addDouble(tr("Checkpoint every"), t.checkpointIntervalMin, 0, 100000, 0, tr(" min"), with([](Job& x, double v) {
                      if (x.training)
                          x.training->checkpointIntervalMin = v;
                  }));
        if (j->lora)
            addInt(tr("LoRA rank"), j->lora->rank, 0, 65536, QString(), with([](Job& x, int v) {
                       if (x.lora)
                           x.lora->rank = v;
                   }));
    } else {
        const InferenceSpec in = j->inference.value_or(InferenceSpec{});
        auto inf = [&](const QString& label, double value, double max, int decimals, const QString& suffix,
                       auto member) {
            addDouble(label, value, 0, max, decimals, suffix, with([member](Job& x, double v) {
                          if (x.inference)
                              member(*x.inference, v);
                      }));
        };
        addChoice(tr("Load"), enumItems<ServingLoad>(), nameOf(in.load), with([](Job& x, const QString& v) {
                      if (x.inference)
                          x.inference->load = valueOf(v, x.inference->load);
                  }));
        if (auto* box = field(tr("Load")))
            box->setToolTip(tr("closed: Concurrency users, each sending the next request when the last completes "
                               "(how AIPerf and vLLM's benchmarks measure); open: Poisson arrivals at Requests, "
                               "Concurrency the most sequences in flight"));
        inf(tr("Requests"), in.requestsPerS, 1e7, 2, tr(" /s"), [](InferenceSpec& x, double v) { x.requestsPerS = v; });
        inf(tr("Prompt"), in.promptTokens(), 1e8, 0, tr(" tokens"),
            [](InferenceSpec& x, double v) { x.inputTokens = static_cast<int>(v); });
        inf(tr("Context"), in.contextTokens, 1e8, 0, tr(" tokens"),
            [](InferenceSpec& x, double v) { x.contextTokens = static_cast<int>(v); });
        inf(tr("Output"), in.outputTokens, 1e8, 0, tr(" tokens"),
            [](InferenceSpec& x, double v) { x.outputTokens = static_cast<int>(v); });
        inf(tr("Concurrency"), in.concurrency, 1e6, 0, tr(" seq"),
            [](InferenceSpec& x, double v) { x.concurrency = static_cast<int>(v); });
    }
    addDouble(tr("Arrives at"), j->schedule.arrivalH, 0, 1e6, 1, tr(" h"),
              with([](Job& x, double v) { x.schedule.arrivalH = v; }));
    addDouble(tr("Runs for"), j->schedule.durationH, 0, 1e6, 1, tr(" h"),
              with([](Job& x, double v) { x.schedule.durationH = v; }));
    if (auto* runs = qobject_cast<QDoubleSpinBox*>(field(tr("Runs for"))))
        runs->setSpecialValueText(tr("until done"));
    revalidate();
}

QWidget* PropertiesPanel::field(const QString& label) const
{
    for (const Field& f : mFields)
        if (f.label == label)
            return f.editor;
    return nullptr;
}

QStringList PropertiesPanel::fieldLabels() const
{
    QStringList out;
    for (const Field& f : mFields)
        out << f.label;
    return out;
}

Scenario PropertiesPanel::changed() const
{
    Scenario s = mBase;
    for (const Field& f : mFields)
        if (f.touched)
            f.set(s);
    return s;
}

void PropertiesPanel::revalidate()
{
    bool touched = false;
    for (const Field& f : mFields)
        touched = touched || f.touched;
    Issues errors;
    if (touched)
        for (Issue& i : validateScenario(changed(), mCatalog))
            if (i.severity == Issue::Severity::Error)
                errors.push_back(std::move(i));
    QStringList lines;
    for (const Issue& i : errors)
        lines << QString::fromStdString(i.toString());
    mMessage->setText(lines.isEmpty() ? (touched ? tr("Valid — Apply to change it (undoable).") : QString())
                                      : lines.join('\n'));
    mMessage->setStyleSheet(errors.empty() ? QString() : QStringLiteral("color: #c0392b"));
    mApply->setEnabled(touched && errors.empty());
}

QString PropertiesPanel::message() const { return mMessage->text(); }
bool PropertiesPanel::canApply() const { return mApply->isEnabled(); }

void PropertiesPanel::apply()
{
    if (!canApply())
        return;
    const Scenario s = changed();
    if (s == mBase)
        return;
    Q_EMIT editRequested(document::diffEdit(mBase, s, mWhat.toStdString()));
}

} // namespace gp::ui
