// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "document/edit.h"
#include "model/catalog.h"
#include "model/scenario.h"

#include <QWidget>

#include <functional>
#include <vector>

class QFormLayout;
class QLabel;
class QPushButton;

namespace gp::ui {

/// Edits the properties of the selection — nodes, switches or links on the canvas (one or
/// many of one kind: a field changed on a multi-selection is set on all of them), or a tenant
/// or job from the workloads panel. Every change is checked by the core's validateScenario on
/// a copy; its message shows inline and Apply stays off while it fails. Apply emits the change
/// as an edit by id (only the items and fields that differ), which the window pushes as one
/// undo step.
class PropertiesPanel : public QWidget
{
    Q_OBJECT

public:
    PropertiesPanel(const Catalog& catalog, QWidget* parent = nullptr);
    /// Nodes, switches and links of `scenario` by id (the kind of the first id wins).
    void showItems(const Scenario& scenario, const QStringList& ids);
    void showTenant(const Scenario& scenario, const QString& tenantId);
    void showJob(const Scenario& scenario, const QString& jobId);
    void clear(const QString& hint = {});
    /// Shows the same subject again from a changed scenario (after an edit, undo or redo).
    void refresh(const Scenario& scenario);
    /// The scenario changed only where the form shows nothing (items moved on the canvas):
    /// what the user typed stays, and Apply changes it on top of the new scenario, so the
    /// move is kept.
    void rebase(const Scenario& scenario);
    bool showsCanvasItems() const { return mSubject == Subject::Items; }

    /// The editor of a field by its label, for tests (a QLineEdit, QSpinBox, QDoubleSpinBox,
    /// QCheckBox or QComboBox); null when the selection has no such field.
    QWidget* field(const QString& label) const;
    QStringList fieldLabels() const;
    QString message() const;
    bool canApply() const;
    /// The scenario with the changed fields applied (what Apply would emit).
    Scenario changed() const;
    /// Presses Apply.
    void apply();

Q_SIGNALS:
    void editRequested(const gp::document::Edit& edit);

private:
    using Setter = std::function<void(Scenario&)>;
    struct Field
    {
        QString label;
        QWidget* editor = nullptr;
        Setter set;
        bool touched = false;
    };
    void resetForm(const QString& hint);
    void begin(const Scenario& scenario, const QString& title, const QString& what);
    void addRow(const QString& label, QWidget* editor, Setter set);
    void addText(const QString& label, const std::string& value,
                 std::function<void(Scenario&, const std::string&)> set);
    void addInt(const QString& label, int value, int min, int max, const QString& suffix,
                std::function<void(Scenario&, int)> set);
    void addDouble(const QString& label, double value, double min, double max, int decimals, const QString& suffix,
                   std::function<void(Scenario&, double)> set);
    void addBool(const QString& label, bool value, std::function<void(Scenario&, bool)> set);
    void addChoice(const QString& label, const QStringList& items, const QString& current,
                   std::function<void(Scenario&, const QString&)> set);
    void revalidate();

    enum class Subject
    {
        None,
        Items,
        Tenant,
        Job
    };
    const Catalog& mCatalog;
    Subject mSubject = Subject::None;
    QStringList mSubjectIds;
    Scenario mBase;
    QString mWhat; ///< undo text
    QLabel* mTitle;
    QWidget* mFormHost;
    QFormLayout* mForm;
    QLabel* mMessage;
    QPushButton* mApply;
    std::vector<Field> mFields;
};

} // namespace gp::ui
