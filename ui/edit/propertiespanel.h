// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "document/commands.h"
#include "document/edit.h"
#include "model/catalog.h"
#include "model/scenario.h"

#include <QJsonValue>
#include <QWidget>

#include <functional>
#include <vector>

class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;

namespace gp::ui {

/// How the properties panel shows a number: in other units than the file, or with 0 as "none".
struct NumberFieldOptions
{
    double scale = 1.0;      ///< file value = shown value × scale (tokens shown in billions)
    bool zeroIsNone = false; ///< 0 removes the optional field
    QString zeroText;        ///< shown instead of 0
};

/// Edits the properties of the selection — nodes, switches or links on the canvas (one or
/// many of one kind: a field changed on a multi-selection is set on all of them), or a tenant
/// or job from the workloads panel. Each field is a field of the scenario file (its editor is
/// named after it, "nics.count"); a change becomes field patches (`nodes[node-3].nics.count`,
/// document::patchFields, the same as `gpuplan-cli edit --set`), read back with every check of
/// the file format. Their issues show inline, by id path, and Apply stays off while they fail.
/// Apply emits the patches' edit by id, which follow() pushes as one undo step.
class PropertiesPanel : public QWidget
{
    Q_OBJECT

public:
    PropertiesPanel(const Catalog& catalog, QWidget* parent = nullptr);
    /// Shows what is selected on the canvas or in the workloads panel of the workbench's open
    /// document, refreshes it after every edit, undo or redo, and pushes Apply's edit onto it.
    void follow(class Workbench& workbench, class CanvasScene* scene, class WorkloadsPanel* workloads);
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
    /// A job or a tenant: a subject the GPU-sharing form beside it has nothing to say about.
    bool showsJobOrTenant() const { return mSubject == Subject::Job || mSubject == Subject::Tenant; }
    /// Shows the dock the panel is in and gives the panel the focus.
    void showInDock();

    /// The editor of a field by its key in the item's JSON ("nics.count", "sla.deadline_days"):
    /// a QLineEdit, QSpinBox, QDoubleSpinBox, QCheckBox or QComboBox whose object name is the
    /// key; null when the selection has no such field.
    QWidget* field(const QString& key) const;
    QStringList fieldKeys() const;
    QString message() const;
    bool canApply() const;
    /// The changed fields as patches, one per field and selected item (what Apply pushes).
    std::vector<document::FieldPatch> patches() const;
    /// Presses Apply.
    void apply();

Q_SIGNALS:
    void editRequested(const gp::document::Edit& edit);
    /// The form shows another subject (or none) now.
    void subjectChanged();

private:
    using Value = std::function<QJsonValue()>;
    struct Field
    {
        QString key; ///< the field's path inside the item's JSON
        QWidget* editor = nullptr;
        Value value; ///< the editor's value as the file writes it (null removes an optional field)
        bool touched = false;
    };
    void resetForm(const QString& hint);
    void begin(const Scenario& scenario, const QString& list, const QStringList& ids, const QString& title,
               const QString& what);
    void addRow(const QString& key, const QString& label, QWidget* editor, Value value);
    void touch(std::size_t index);
    void addText(const QString& key, const QString& label, const std::string& value);
    /// A whole number; with `zeroText`, 0 shows as it and removes the optional field.
    QSpinBox* addInt(const QString& key, const QString& label, int value, int min, int max, const QString& suffix,
                     const QString& zeroText = {});
    /// A list of names ticked from `choices` (one check box each, named KEY.NAME); none ticked
    /// removes the optional field.
    QWidget* addNameSet(const QString& key, const QString& label, const QStringList& choices,
                        const std::vector<std::string>& current);
    /// A list of whole numbers typed as "32,32,31,31"; empty removes the optional field. A part
    /// that is not a number goes to the file's reader as typed, which says why it is refused.
    QLineEdit* addIntList(const QString& key, const QString& label, const std::vector<int>& values);
    QDoubleSpinBox* addDouble(const QString& key, const QString& label, double value, double min, double max,
                              int decimals, const QString& suffix, const NumberFieldOptions& options = {});
    void addBool(const QString& key, const QString& label, bool value);
    QComboBox* addChoice(const QString& key, const QString& label, const QStringList& items, int current,
                         const std::vector<QJsonValue>& values);
    template <typename E> QComboBox* addEnum(const QString& key, const QString& label, E current);
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
    QString mList;        ///< the file's list the subject is in: "nodes", "switches", "links", "tenants", "jobs"
    QStringList mTargets; ///< the ids a change applies to
    Result<document::Edit> mPending; ///< the patches' edit, or why they are refused
    QString mWhat;                   ///< undo text
    QLabel* mTitle;
    QWidget* mFormHost;
    QFormLayout* mForm;
    QLabel* mMessage;
    QPushButton* mApply;
    std::vector<Field> mFields;
};

} // namespace gp::ui
