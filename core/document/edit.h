// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "model/scenario.h"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace gp::document {

/// What an edit touches. `Settings` is the scenario's own fields (name, description, pricing,
/// placement policy, assumptions, calibration profile); `Whole` replaces everything (import,
/// restoring a draft).
enum class ItemKind
{
    Whole,
    Settings,
    Group,
    Node,
    Switch,
    Link,
    Tenant,
    Job
};
/// "scenario", "settings", "groups", "nodes", "switches", "links", "tenants", "jobs" (the
/// names `gpuplan-cli edit` addresses items by).
std::string_view itemKindName(ItemKind kind);

/// An item's value. Settings and Whole hold a Scenario (Settings reads only its own fields); a
/// Tenant's jobs travel with it when it is added or removed, never when it is updated.
using ItemValue = std::variant<Scenario, Group, Node, Switch, Link, Tenant, Job>;

/// One item before and after an edit; no `before` is an addition, no `after` a removal.
/// Stores ids, values and list positions, never pointers into the scenario.
struct ItemChange
{
    ItemKind kind = ItemKind::Whole;
    std::string id;
    std::string tenant;    ///< a job's tenant
    std::size_t index = 0; ///< its place in its list (where it is inserted or was)
    std::optional<ItemValue> before;
    std::optional<ItemValue> after;
    std::vector<std::string> fields; ///< the file-format keys that differ, for an update
};

/// What a view is told after an edit, its undo or its redo (Document::changed).
enum class ChangeKind
{
    Reset,
    Added,
    Removed,
    Updated
};
struct Change
{
    ChangeKind kind = ChangeKind::Reset;
    ItemKind item = ItemKind::Whole;
    std::string id;
    std::vector<std::string> fields; ///< for Updated: the keys that changed ("position", "sharing")

    /// Only the canvas position changed: nothing the plan computes.
    bool movedOnly() const { return kind == ChangeKind::Updated && fields == std::vector<std::string>{"position"}; }
};
using Changes = std::vector<Change>;

/// Whether any change is a Reset, or touches an item of `kind`.
bool anyReset(const Changes& changes);
/// Whether every change only moves items (no re-evaluation needed).
bool onlyMoves(const Changes& changes);

/// An edit of the scenario by id: what the undo stack holds (docs/architecture.md §3).
struct Edit
{
    std::string text; ///< the undo text ("Link node-1 and leaf-1")
    std::vector<ItemChange> changes;
    /// Consecutive edits with the same non-empty key become one undo step (one gesture: a
    /// spin box stepped five times, arrow-key nudges of the same items).
    std::string mergeKey;
    bool empty() const { return changes.empty(); }
};

/// Applies the edit forward (redo) or backward (undo) and says what changed.
Changes applyEdit(Scenario& scenario, const Edit& edit, bool forward);

/// Folds `next` into `edit` when both touch the same items in place (the merge of a gesture);
/// false, and nothing changed, otherwise.
bool mergeEdits(Edit& edit, const Edit& next);

/// Builds an edit one step at a time against a scratch copy of the scenario, so that each
/// change records where its item sits, and the result can be validated before it is pushed.
class EditBuilder
{
public:
    explicit EditBuilder(const Scenario& base);
    /// The scenario with the steps so far applied.
    const Scenario& scenario() const { return mScratch; }
    /// Adds an item at the end of its list (a job to `tenant`'s jobs).
    void add(ItemValue item, const std::string& tenant = {});
    /// Removes an item (a job from whichever tenant has it, a tenant with its jobs); false
    /// when there is none with that id.
    bool remove(ItemKind kind, const std::string& id);
    /// Replaces the item with the same id (a tenant keeps its jobs); false when there is none
    /// or when it is equal already (then nothing is recorded).
    bool update(ItemValue item);
    /// Replaces the scenario's own fields (name, description, pricing, policy, assumptions,
    /// calibration profile).
    void updateSettings(const Scenario& settings);
    /// Replaces everything (import and draft restore only).
    void replaceWhole(Scenario scenario);
    Edit finish(std::string text, std::string mergeKey = {}) &&;

private:
    Scenario mScratch;
    std::vector<ItemChange> mChanges;
};

/// The edit that turns `before` into `after`, by id: updates, removals and additions per list;
/// a Whole replacement when the lists were reordered.
Edit diffEdit(const Scenario& before, const Scenario& after, std::string text);

} // namespace gp::document
