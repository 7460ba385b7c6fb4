// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "edit.h"

#include "io/scenariowriter.h"

#include <QJsonObject>

#include <algorithm>
#include <map>
#include <set>

namespace gp::document {

std::string_view itemKindName(ItemKind kind)
{
    switch (kind) {
    case ItemKind::Whole: return "scenario";
    case ItemKind::Settings: return "settings";
    case ItemKind::Group: return "groups";
    case ItemKind::Node: return "nodes";
    case ItemKind::Switch: return "switches";
    case ItemKind::Link: return "links";
    case ItemKind::Tenant: return "tenants";
    case ItemKind::Job: return "jobs";
    }
    return "scenario";
}

bool anyReset(const Changes& changes)
{
    return std::any_of(changes.begin(), changes.end(), [](const Change& c) { return c.kind == ChangeKind::Reset; });
}

bool onlyMoves(const Changes& changes)
{
    return !changes.empty() &&
           std::all_of(changes.begin(), changes.end(), [](const Change& c) { return c.movedOnly(); });
}

namespace {

template <typename T> constexpr ItemKind kindOfType()
{
    if constexpr (std::is_same_v<T, Group>)
        return ItemKind::Group;
    else if constexpr (std::is_same_v<T, Node>)
        return ItemKind::Node;
    else if constexpr (std::is_same_v<T, Switch>)
        return ItemKind::Switch;
    else if constexpr (std::is_same_v<T, Link>)
        return ItemKind::Link;
    else if constexpr (std::is_same_v<T, Tenant>)
        return ItemKind::Tenant;
    else if constexpr (std::is_same_v<T, Job>)
        return ItemKind::Job;
    else
        return ItemKind::Whole;
}

std::string idOf(const ItemValue& v)
{
    return std::visit(
        [](const auto& item) -> std::string {
            if constexpr (std::is_same_v<std::decay_t<decltype(item)>, Scenario>)
                return {};
            else
                return item.id;
        },
        v);
}

/// The list an item of type T lives in (a job: its tenant's jobs); null when the tenant is gone.
template <typename T> std::vector<T>* listOf(Scenario& s, const std::string& tenant)
{
    if constexpr (std::is_same_v<T, Group>)
        return &s.topology.groups;
    else if constexpr (std::is_same_v<T, Node>)
        return &s.topology.nodes;
    else if constexpr (std::is_same_v<T, Switch>)
        return &s.topology.switches;
    else if constexpr (std::is_same_v<T, Link>)
        return &s.topology.links;
    else if constexpr (std::is_same_v<T, Tenant>)
        return &s.tenants;
    else {
        Tenant* t = s.findTenant(tenant);
        return t ? &t->jobs : nullptr;
    }
}

/// Where the item with this id sits; `hint` is tried first (the usual case: nothing moved).
template <typename T>
std::optional<std::size_t> find(const std::vector<T>& list, const std::string& id, std::size_t hint)
{
    if (hint < list.size() && list[hint].id == id)
        return hint;
    for (std::size_t i = 0; i < list.size(); ++i)
        if (list[i].id == id)
            return i;
    return std::nullopt;
}

void copySettings(Scenario& to, const Scenario& from)
{
    to.name = from.name;
    to.description = from.description;
    to.pricing = from.pricing;
    to.placementPolicy = from.placementPolicy;
    to.assumptions = from.assumptions;
    to.calibration = from.calibration;
}

Scenario settingsOf(const Scenario& s)
{
    Scenario out;
    copySettings(out, s);
    return out;
}

bool sameSettings(const Scenario& a, const Scenario& b) { return settingsOf(a) == settingsOf(b); }

bool sameTenantFields(Tenant a, Tenant b)
{
    a.jobs.clear();
    b.jobs.clear();
    return a == b;
}

void applyOne(Scenario& s, ItemKind kind, const std::string& tenant, std::size_t index, const ItemValue* from,
              const ItemValue* to)
{
    if (kind == ItemKind::Whole || kind == ItemKind::Settings) {
        if (!to) // both always hold a scenario on each side; nothing to do otherwise
            return;
        if (kind == ItemKind::Whole)
            s = std::get<Scenario>(*to);
        else
            copySettings(s, std::get<Scenario>(*to));
        return;
    }
    if (!from && !to)
        return;
    std::visit(
        [&](const auto& any) {
            using T = std::decay_t<decltype(any)>;
            if constexpr (!std::is_same_v<T, Scenario>) {
                std::vector<T>* list = listOf<T>(s, tenant);
                if (!list)
                    return;
                const std::string id = any.id;
                if (from && to) {
                    if (auto at = find(*list, id, index)) {
                        T value = std::get<T>(*to);
                        if constexpr (std::is_same_v<T, Tenant>)
                            value.jobs = std::move((*list)[*at].jobs); // an update never carries jobs
                        (*list)[*at] = std::move(value);
                    }
                } else if (to) {
                    list->insert(list->begin() + static_cast<std::ptrdiff_t>(std::min(index, list->size())),
                                 std::get<T>(*to));
                } else if (auto at = find(*list, id, index)) {
                    list->erase(list->begin() + static_cast<std::ptrdiff_t>(*at));
                }
            }
        },
        from ? *from : *to);
}

/// The top-level file keys in which two values of an item differ.
std::vector<std::string> fieldsOf(const ItemValue& a, const ItemValue& b)
{
    auto json = [](const ItemValue& v) {
        return std::visit(
            [](const auto& item) -> QJsonObject {
                using T = std::decay_t<decltype(item)>;
                if constexpr (std::is_same_v<T, Scenario>) {
                    QJsonObject o = io::scenarioToJson(settingsOf(item));
                    o.remove("topology");
                    o.remove("tenants");
                    return o;
                } else {
                    QJsonObject o = io::toJson(item);
                    if constexpr (std::is_same_v<T, Tenant>)
                        o.remove("jobs");
                    return o;
                }
            },
            v);
    };
    const QJsonObject ja = json(a), jb = json(b);
    std::set<QString> keys;
    for (const QString& k : ja.keys())
        keys.insert(k);
    for (const QString& k : jb.keys())
        keys.insert(k);
    std::vector<std::string> out;
    for (const QString& k : keys)
        if (ja.value(k) != jb.value(k))
            out.push_back(k.toStdString());
    return out;
}

} // namespace

Changes applyEdit(Scenario& scenario, const Edit& edit, bool forward)
{
    Changes out;
    const std::size_t n = edit.changes.size();
    for (std::size_t k = 0; k < n; ++k) {
        const ItemChange& c = edit.changes[forward ? k : n - 1 - k];
        const ItemValue* from = forward ? (c.before ? &*c.before : nullptr) : (c.after ? &*c.after : nullptr);
        const ItemValue* to = forward ? (c.after ? &*c.after : nullptr) : (c.before ? &*c.before : nullptr);
        applyOne(scenario, c.kind, c.tenant, c.index, from, to);
        Change ch;
        ch.item = c.kind;
        ch.id = c.id;
        if (c.kind == ItemKind::Whole)
            ch.kind = ChangeKind::Reset;
        else if (!from)
            ch.kind = ChangeKind::Added;
        else if (!to)
            ch.kind = ChangeKind::Removed;
        else {
            ch.kind = ChangeKind::Updated;
            ch.fields = c.fields;
        }
        out.push_back(std::move(ch));
    }
    return out;
}

bool mergeEdits(Edit& edit, const Edit& next)
{
    if (edit.mergeKey.empty() || edit.mergeKey != next.mergeKey || edit.changes.size() != next.changes.size())
        return false;
    for (std::size_t i = 0; i < edit.changes.size(); ++i) {
        const ItemChange &a = edit.changes[i], &b = next.changes[i];
        if (a.kind != b.kind || a.id != b.id || a.tenant != b.tenant || !a.before || !a.after || !b.before ||
            !b.after || a.kind == ItemKind::Whole)
            return false;
    }
    for (std::size_t i = 0; i < edit.changes.size(); ++i) {
        ItemChange& a = edit.changes[i];
        a.after = next.changes[i].after;
        a.fields = fieldsOf(*a.before, *a.after);
    }
    return true;
}

EditBuilder::EditBuilder(const Scenario& base) : mScratch(base) {}

void EditBuilder::add(ItemValue item, const std::string& tenant)
{
    ItemChange c;
    c.id = idOf(item);
    c.tenant = tenant;
    std::visit(
        [&](const auto& any) {
            using T = std::decay_t<decltype(any)>;
            c.kind = kindOfType<T>();
            if constexpr (!std::is_same_v<T, Scenario>)
                if (auto* list = listOf<T>(mScratch, tenant))
                    c.index = list->size();
        },
        item);
    if (c.kind == ItemKind::Whole)
        return; // a scenario is not an item: replaceWhole or updateSettings
    c.after = std::move(item);
    applyOne(mScratch, c.kind, c.tenant, c.index, nullptr, &*c.after);
    mChanges.push_back(std::move(c));
}

bool EditBuilder::remove(ItemKind kind, const std::string& id)
{
    ItemChange c;
    c.kind = kind;
    c.id = id;
    auto take = [&](auto& list) {
        if (auto at = find(list, id, 0)) {
            c.index = *at;
            c.before = list[*at];
            return true;
        }
        return false;
    };
    bool found = false;
    switch (kind) {
    case ItemKind::Group: found = take(mScratch.topology.groups); break;
    case ItemKind::Node: found = take(mScratch.topology.nodes); break;
    case ItemKind::Switch: found = take(mScratch.topology.switches); break;
    case ItemKind::Link: found = take(mScratch.topology.links); break;
    case ItemKind::Tenant: found = take(mScratch.tenants); break;
    case ItemKind::Job:
        for (Tenant& t : mScratch.tenants)
            if (!found && take(t.jobs)) {
                found = true;
                c.tenant = t.id;
            }
        break;
    case ItemKind::Whole:
    case ItemKind::Settings: break;
    }
    if (!found)
        return false;
    applyOne(mScratch, c.kind, c.tenant, c.index, &*c.before, nullptr);
    mChanges.push_back(std::move(c));
    return true;
}

bool EditBuilder::update(ItemValue item)
{
    ItemChange c;
    c.id = idOf(item);
    bool found = false, same = false;
    std::visit(
        [&](const auto& value) {
            using T = std::decay_t<decltype(value)>;
            if constexpr (!std::is_same_v<T, Scenario>) {
                c.kind = kindOfType<T>();
                auto look = [&](std::vector<T>& list) {
                    if (auto at = find(list, c.id, 0)) {
                        found = true;
                        c.index = *at;
                        c.before = list[*at];
                        if constexpr (std::is_same_v<T, Tenant>)
                            same = sameTenantFields(list[*at], value);
                        else
                            same = list[*at] == value;
                    }
                };
                if constexpr (std::is_same_v<T, Job>) {
                    for (Tenant& t : mScratch.tenants)
                        if (!found) {
                            look(t.jobs);
                            if (found)
                                c.tenant = t.id;
                        }
                } else
                    look(*listOf<T>(mScratch, {}));
            }
        },
        item);
    if (!found || same)
        return false;
    c.after = std::move(item);
    c.fields = fieldsOf(*c.before, *c.after);
    applyOne(mScratch, c.kind, c.tenant, c.index, &*c.before, &*c.after);
    mChanges.push_back(std::move(c));
    return true;
}

void EditBuilder::updateSettings(const Scenario& settings)
{
    if (sameSettings(mScratch, settings))
        return;
    ItemChange c;
    c.kind = ItemKind::Settings;
    c.before = settingsOf(mScratch);
    c.after = settingsOf(settings);
    c.fields = fieldsOf(*c.before, *c.after);
    applyOne(mScratch, c.kind, {}, 0, &*c.before, &*c.after);
    mChanges.push_back(std::move(c));
}

void EditBuilder::replaceWhole(Scenario scenario)
{
    ItemChange c;
    c.kind = ItemKind::Whole;
    c.before = mScratch;
    c.after = std::move(scenario);
    applyOne(mScratch, c.kind, {}, 0, &*c.before, &*c.after);
    mChanges.push_back(std::move(c));
}

Edit EditBuilder::finish(std::string text, std::string mergeKey) &&
{
    return {std::move(text), std::move(mChanges), std::move(mergeKey)};
}

namespace {

/// Removals, updates and additions of one list, by id, into the builder.
/// Only the items that differ reach the builder (each of its steps looks its item up), so a
/// form's one-field change on a 1,024-node scenario costs one update, not a thousand.
template <typename T> void diffList(EditBuilder& b, const std::vector<T>& before, const std::vector<T>& after)
{
    std::set<std::string> inAfter;
    std::map<std::string, const T*> old;
    for (const T& x : after)
        inAfter.insert(x.id);
    for (const T& x : before)
        old[x.id] = &x;
    for (const T& x : before)
        if (!inAfter.count(x.id))
            b.remove(kindOfType<T>(), x.id);
    for (const T& x : after) {
        const auto it = old.find(x.id);
        if (it == old.end())
            continue;
        if constexpr (std::is_same_v<T, Tenant>) {
            if (!sameTenantFields(*it->second, x))
                b.update(x);
        } else if (!(*it->second == x))
            b.update(x);
    }
    for (const T& x : after)
        if (!old.count(x.id))
            b.add(x);
}

} // namespace

Edit diffEdit(const Scenario& before, const Scenario& after, std::string text)
{
    EditBuilder b(before);
    b.updateSettings(after);
    diffList(b, before.topology.groups, after.topology.groups);
    diffList(b, before.topology.nodes, after.topology.nodes);
    diffList(b, before.topology.switches, after.topology.switches);
    diffList(b, before.topology.links, after.topology.links);
    // Jobs first (by the tenant that has them), then the tenants' own fields.
    std::map<std::string, const Tenant*> oldTenants, newTenants;
    for (const Tenant& t : before.tenants)
        oldTenants[t.id] = &t;
    for (const Tenant& t : after.tenants)
        newTenants[t.id] = &t;
    std::map<std::string, std::string> newJobTenant;
    for (const Tenant& t : after.tenants)
        for (const Job& j : t.jobs)
            newJobTenant[j.id] = t.id;
    for (const Tenant& t : before.tenants)
        for (const Job& j : t.jobs) {
            auto it = newJobTenant.find(j.id);
            if ((it == newJobTenant.end() || it->second != t.id) && newTenants.count(t.id))
                b.remove(ItemKind::Job, j.id); // gone, or moved to another tenant
        }
    for (const Tenant& t : before.tenants)
        if (!newTenants.count(t.id))
            b.remove(ItemKind::Tenant, t.id);
    for (const Tenant& t : after.tenants) {
        auto old = oldTenants.find(t.id);
        if (old == oldTenants.end()) {
            b.add(t); // a new tenant with its jobs
            continue;
        }
        if (!sameTenantFields(*old->second, t))
            b.update(t);
        std::map<std::string, const Job*> had;
        for (const Job& j : old->second->jobs)
            had[j.id] = &j;
        for (const Job& j : t.jobs) {
            const auto it = had.find(j.id);
            if (it == had.end())
                b.add(j, t.id);
            else if (!(*it->second == j))
                b.update(j);
        }
    }
    if (b.scenario() == after)
        return std::move(b).finish(std::move(text));
    EditBuilder whole(before); // reordered lists: only a whole replacement says it exactly
    whole.replaceWhole(after);
    return std::move(whole).finish(std::move(text));
}

} // namespace gp::document
