// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "document/document.h"
#include "document/edit.h"
#include "model/catalog.h"
#include "model/issue.h"
#include "store/scenariolibrary.h"

#include <QObject>
#include <QString>

#include <memory>

class QWidget;

namespace gp::document {
class Autosaver;
class PlanSession;
} // namespace gp::document

namespace gp::ui {

class ActionRegistry;
struct MeasuredComparison;

/// Issues as lines for a message box, at most `max` of them.
QString issuesText(const Issues& issues, int max = 20);

/// What one workbench window and its flows share (docs/architecture.md §3): the catalog, the
/// library, the open document, the plan session that computes its results, the autosaver and
/// the window's actions (Undo and Redo among them, which follow the open document's stack).
/// The flows (library, edits, exports, recovery) and the canvas editor work through it, so
/// none of them needs the window. Members are declared in the order they depend on each
/// other: the session and the autosaver go before the library and the catalog they use.
class Workbench : public QObject
{
    Q_OBJECT

public:
    Workbench(Catalog catalog, std::unique_ptr<store::ScenarioLibrary> library, QObject* parent = nullptr);
    ~Workbench() override;

    const Catalog& catalog() const { return mCatalog; }
    store::ScenarioLibrary& library() const { return *mLibrary; }
    /// The open document; null before the first one is opened.
    document::Document* document() const { return mDocument.get(); }
    /// Replaces the open document (the caller asked about unsaved changes first).
    void setDocument(std::unique_ptr<document::Document> doc);
    document::PlanSession& session() const { return *mSession; }
    document::Autosaver& autosaver() const { return *mAutosaver; }
    /// The window's actions by id, shared by its menus, toolbar and context menus.
    ActionRegistry& actions() const { return *mActions; }

    /// The open plan's last comparison with what its cluster measured (Results > Plan vs
    /// Measured), which the report adds as its "Plan vs measured" pages; null when none was made
    /// since the document was opened.
    const MeasuredComparison* measuredComparison() const { return mMeasured.get(); }
    void setMeasuredComparison(std::shared_ptr<const MeasuredComparison> comparison);

    /// True when a document is open and may be edited; a read-only revision says why.
    bool editable();
    /// Pushes a rule's edit onto the document, or says why the core refused it under
    /// `refusal`: in a message box over `dialogParent`, or as a status message without one.
    bool push(Result<document::Edit> edit, const QString& refusal, QWidget* dialogParent = nullptr);

Q_SIGNALS:
    /// A different document is open now (or the same one reopened).
    void documentReplaced();
    /// What an edit, undo or redo of the open document changed (Document::changed): the views
    /// subscribe here once instead of to each document.
    void documentChanged(const gp::document::Changes& changes);
    /// The open document became editable or read-only (a new document, a revision made
    /// read-only): every way of editing follows, the registry's editing actions first.
    void editableChanged(bool editable);
    /// A short message for the status bar.
    void message(const QString& text, int timeoutMs);

private:
    /// Points the Undo and Redo actions (registered here) at the open document's stack.
    void followUndoStack();

    Catalog mCatalog;
    std::unique_ptr<store::ScenarioLibrary> mLibrary;
    std::unique_ptr<document::Document> mDocument;
    std::unique_ptr<document::PlanSession> mSession;
    std::unique_ptr<document::Autosaver> mAutosaver;
    ActionRegistry* mActions;
    std::shared_ptr<const MeasuredComparison> mMeasured;
};

} // namespace gp::ui
