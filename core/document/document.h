// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "model/catalog.h"
#include "model/scenario.h"

#include <QObject>
#include <QString>
#include <QStringList>
#include <QUndoStack>

#include <optional>

namespace gp::document {

/// One open scenario (DESIGN.md §5.1): owns the model, the undo stack, the clean state and
/// where the scenario lives in the library. Views read the scenario and listen to the
/// announcements; edits arrive as commands on undoStack().
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

    /// Replaces the whole scenario (used by commands; swaps so undo and redo share code).
    void swapScenario(Scenario& other);
    /// Lets a command change the nodes; only commands call this (DESIGN.md §4.1).
    template <typename Fn> void editNodes(Fn fn) { fn(mScenario.topology.nodes); }
    template <typename Fn> void editTopology(Fn fn) { fn(mScenario.topology); }

Q_SIGNALS:
    void scenarioReplaced();
    /// Nodes whose properties a command changed.
    void nodesChanged(const QStringList& ids);
    /// Nodes or switches a command moved (positions only: no re-evaluation needed).
    void itemsMoved(const QStringList& ids);
    void modifiedChanged(bool modified);

private:
    Scenario mScenario;
    QUndoStack mUndoStack;
    std::optional<qint64> mLibraryId;
    std::optional<int> mRevision;
    bool mReadOnly = false;
    QString mOrigin; ///< "revision 2 of 5", shown in the title while read-only
};

} // namespace gp::document
