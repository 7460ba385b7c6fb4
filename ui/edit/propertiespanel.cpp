// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "propertiespanel.h"

#include "io/textformat.h"
#include "ui/actionregistry.h"
#include "ui/canvas/canvasscene.h"
#include "ui/workbench.h"
#include "workloadspanel.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QJsonArray>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <set>

namespace gp::ui {

namespace {

using text::q;

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

void PropertiesPanel::follow(Workbench& workbench, CanvasScene* scene, WorkloadsPanel* workloads)
{
    connect(&workbench, &Workbench::documentReplaced, this, [this] { clear(); });
    connect(&workbench, &Workbench::documentChanged, this, [this, &workbench](const document::Changes& changes) {
        const Scenario& s = workbench.document()->scenario();
        if (document::onlyMoves(changes)) // positions change nothing the form shows
            rebase(s);
        else
            refresh(s);
    });
    connect(&workbench, &Workbench::editableChanged, this, &QWidget::setEnabled);
    connect(scene, &QGraphicsScene::selectionChanged, this, [this, &workbench, scene] {
        const document::Document* doc = workbench.document();
        if (!doc)
            return;
        const QStringList ids = scene->selectedIds();
        if (!ids.isEmpty())
            showItems(doc->scenario(), ids);
        else if (showsCanvasItems())
            clear();
    });
    // A job or tenant chosen in Workloads is the one subject: the canvas's selection goes, so a
    // click on a node afterwards shows that node again (issue 36).
    connect(workloads, &WorkloadsPanel::jobSelected, this, [this, &workbench, scene](const QString& id) {
        if (const document::Document* doc = workbench.document()) {
            showJob(doc->scenario(), id);
            scene->clearSelection();
        }
    });
    connect(workloads, &WorkloadsPanel::tenantSelected, this, [this, &workbench, scene](const QString& id) {
        if (const document::Document* doc = workbench.document()) {
            showTenant(doc->scenario(), id);
            scene->clearSelection();
        }
    });
    connect(this, &PropertiesPanel::editRequested, &workbench, [&workbench](const document::Edit& edit) {
        if (workbench.editable())
            workbench.document()->push(edit);
    });
    // The context menus' Edit entries: this panel, raised, on what the menu was opened on.
    ActionRegistry& actions = workbench.actions();
    connect(actions.add(ActionId::EditProperties, tr("&Edit Properties"), {}, false), &QAction::triggered, this,
            [this] { showInDock(); });
    connect(actions.add(ActionId::EditTenant, tr("&Edit Tenant"), {}, false), &QAction::triggered, this,
            [this, &workbench] {
                if (const document::Document* doc = workbench.document())
                    showTenant(doc->scenario(), workbench.actions().subject().id);
                showInDock();
            });
}

void PropertiesPanel::showInDock()
{
    for (QWidget* w = parentWidget(); w; w = w->parentWidget())
        if (auto* dock = qobject_cast<QDockWidget*>(w)) {
            dock->show();
            dock->raise();
        }
    setFocus();
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
    Q_EMIT subjectChanged();
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

QSpinBox* PropertiesPanel::addInt(const QString& key, const QString& label, int value, int min, int max,
                                  const QString& suffix, const QString& zeroText)
{
    auto* e = new QSpinBox(mFormHost);
    e->setRange(min, max);
    e->setSuffix(suffix);
    e->setValue(value);
    if (!zeroText.isEmpty())
        e->setSpecialValueText(zeroText);
    const std::size_t index = mFields.size();
    const bool zeroIsNone = !zeroText.isEmpty();
    addRow(key, label, e, [e, zeroIsNone] {
        return zeroIsNone && e->value() == 0 ? QJsonValue(QJsonValue::Null) : QJsonValue(e->value());
    });
    connect(e, &QSpinBox::valueChanged, this, [this, index] { touch(index); });
    return e;
}

QWidget* PropertiesPanel::addNameSet(const QString& key, const QString& label, const QStringList& choices,
                                     const std::vector<std::string>& current)
{
    auto* host = new QWidget(mFormHost);
    auto* row = new QVBoxLayout(host); // one under the other: the inspector is narrow (1366x768)
    row->setContentsMargins(0, 0, 0, 0);
    std::vector<QCheckBox*> boxes;
    for (const QString& name : choices) {
        auto* box = new QCheckBox(name, host);
        box->setObjectName(key + "." + name);
        box->setChecked(std::find(current.begin(), current.end(), name.toStdString()) != current.end());
        row->addWidget(box);
        boxes.push_back(box);
    }
    const std::size_t index = mFields.size();
    addRow(key, label, host, [boxes, choices] {
        QJsonArray names;
        for (std::size_t i = 0; i < boxes.size(); ++i)
            if (boxes[i]->isChecked())
                names.append(choices[static_cast<qsizetype>(i)]);
        return names.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(names);
    });
    for (QCheckBox* box : boxes)
        connect(box, &QCheckBox::toggled, this, [this, index] { touch(index); });
    return host;
}

QLineEdit* PropertiesPanel::addIntList(const QString& key, const QString& label, const std::vector<int>& values)
{
    QStringList parts;
    for (int v : values)
        parts << QString::number(v);
    auto* e = new QLineEdit(parts.join(','), mFormHost);
    const std::size_t index = mFields.size();
    addRow(key, label, e, [e] {
        const QString text = e->text().trimmed();
        if (text.isEmpty())
            return QJsonValue(QJsonValue::Null);
        QJsonArray list;
        for (const QString& part : text.split(',')) {
            bool ok = false;
            const int n = part.trimmed().toInt(&ok);
            list.append(ok ? QJsonValue(n) : QJsonValue(part.trimmed()));
        }
        return QJsonValue(list);
    });
    connect(e, &QLineEdit::textEdited, this, [this, index] { touch(index); });
    return e;
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
    // As wide as the form gives it, not as its longest item (a software stack's name and id):
    // the inspector is narrow at 1366x768 and has no horizontal scroll bar; the list shows all.
    e->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    e->setMinimumContentsLength(8);
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
