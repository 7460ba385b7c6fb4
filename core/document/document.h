// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "edit.h"

#include "model/catalog.h"
#include "model/issue.h"
#include "model/scenario.h"

#include <QObject>
#include <QString>
#include <QStringList>
#include <QUndoStack>

#include <optional>

namespace gp::document {

/// One open scenario (docs/architecture.md §3): owns the model, the undo stack, the clean state
/// and where the scenario lives in the library. Views read the scenario and listen to
/// changed(); the scenario changes only through edits pushed here.
class Document : public QObject
{
    Q_OBJECT

public:
    Document(Scenario scenario, QObject* parent = nullptr);

    const Scenario& scenario() const { return mScenario; }
    QUndoStack* undoStack() { return &mUndoStack; }
    bool isModified() const { return !mUndoStack.isClean(); }

    std::optional<qint64> libraryId() const { return mLibraryId; }
    std::optional<int> revision() const { return mRevision; }
    /// Where the scenario was last saved in the library; marks the document clean.
    void markSaved(qint64 libraryId, int revision);

    /// A past revision shown as it was: views offer no edits until it is saved as new.
    void setReadOnly(bool readOnly, const QString& origin = {});
    bool isReadOnly() const { return mReadOnly; }
    /// The library scenario was deleted: the document is no longer saved anywhere.
    void forgetLibraryId();
    /// The document holds changes the library lacks though no command made them here
    /// (restored autosaved work): closing asks, saving adds a revision.
    void markUnsaved();
    /// "name" or "name*" for window titles.
    QString displayName() const;

    /// Pushes an edit (one undo step; it merges with the previous one when their merge keys
    /// match). An empty edit changes nothing and pushes nothing.
    void push(Edit edit);
    /// Pushes a rule's edit, or returns its issues untouched when it refused.
    Issues push(Result<Edit> result);
    /// Applies an edit forward or backward and announces it; only the edit command calls this.
    void apply(const Edit& edit, bool forward);

Q_SIGNALS:
    /// What an edit, its undo or its redo changed, by kind and id (edit.h): views update only
    /// those items; a Reset means everything.
    void changed(const gp::document::Changes& changes);
    void modifiedChanged(bool modified);
    /// The document became read-only (a past revision) or editable (saved as new).
    void readOnlyChanged(bool readOnly);

private:
    Scenario mScenario;
    QUndoStack mUndoStack;
    std::optional<qint64> mLibraryId;
    std::optional<int> mRevision;
    bool mReadOnly = false;
    QString mOrigin; ///< "revision 2 of 5", shown in the title while read-only
};

} // namespace gp::document
