// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "commands.h"
#include "fabriclayout.h"
#include "rulesupport.h"

#include "io/jsonfile.h"
#include "io/scenarioreader.h"
#include "io/scenariowriter.h"
#include "model/enumnames.h"
#include "model/ids.h"
#include "model/validation.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <cmath>
#include <set>

namespace gp::document {

namespace {

using R = Result<Edit>;

using rules::accepted;
using rules::validated;

} // namespace

R addItems(const Scenario& s, const Catalog& catalog, const TopologyItems& items, const std::string& text)
{
    EditBuilder b(s);
    for (const Group& g : items.groups)
        b.add(g);
    for (const Node& n : items.nodes)
        b.add(n);
    for (const Switch& sw : items.switches)
        b.add(sw);
    for (const Link& l : items.links)
        b.add(l);
    return validated(std::move(b), catalog, text);
}

R removeItems(const Scenario& s, const Catalog& catalog, const std::vector<std::string>& ids)
{
    const std::set<std::string> gone(ids.begin(), ids.end());
    EditBuilder b(s);
    for (const Link& l : s.topology.links)
        if (gone.count(l.id) || gone.count(l.from) || gone.count(l.to))
            b.remove(ItemKind::Link, l.id);
    for (const Tenant& t : s.tenants)
        for (const Job& j : t.jobs)
            if (j.pin && gone.count(j.pin->node) && !gone.count(j.id) && !gone.count(t.id)) {
                Job unpinned = j;
                unpinned.pin.reset();
                b.update(unpinned);
            }
    int count = 0;
    for (const std::string& id : ids) {
        const bool removed = b.remove(ItemKind::Node, id) || b.remove(ItemKind::Switch, id) ||
                             b.remove(ItemKind::Group, id) || b.remove(ItemKind::Job, id) ||
                             b.remove(ItemKind::Tenant, id); // a tenant goes with its jobs
        const bool isLink =
            std::any_of(s.topology.links.begin(), s.topology.links.end(), [&](const Link& l) { return l.id == id; });
        if (!removed && !isLink)
            return R::failure(id, "no node, switch, link, group, tenant or job has this id");
        ++count;
    }
    // Members of a removed group stay, outside any group.
    for (const Node& n : b.scenario().topology.nodes)
        if (gone.count(n.group)) {
            Node x = n;
            x.group.clear();
            b.update(x);
        }
    for (const Switch& sw : b.scenario().topology.switches)
        if (gone.count(sw.group)) {
            Switch x = sw;
            x.group.clear();
            b.update(x);
        }
    return validated(std::move(b), catalog, "Delete " + std::to_string(count) + (count == 1 ? " item" : " items"));
}

R moveItems(const Scenario& s, const std::map<std::string, Point>& positions, const std::string& mergeKey)
{
    EditBuilder b(s);
    for (const auto& [id, at] : positions) {
        if (!std::isfinite(at.x) || !std::isfinite(at.y))
            return R::failure(id + ".position", "must be a finite point");
        if (const Node* n = s.topology.findNode(id)) {
            Node x = *n;
            x.position = at;
            b.update(x);
        } else if (const Switch* sw = s.topology.findSwitch(id)) {
            Switch x = *sw;
            x.position = at;
            b.update(x);
        } else
            return R::failure(id, "no node or switch has this id");
    }
    const std::size_t n = positions.size();
    return R::success(std::move(b).finish(
        n == 1 ? "Move " + positions.begin()->first : "Move " + std::to_string(n) + " items", mergeKey));
}

R arrangeFabric(const Scenario& s)
{
    std::map<std::string, Point> positions = fabricLayout(s.topology);
    auto same = [&](const std::string& id, const Point& at) {
        const Node* n = s.topology.findNode(id);
        const Switch* sw = n ? nullptr : s.topology.findSwitch(id);
        return (n && n->position == at) || (sw && sw->position == at);
    };
    std::erase_if(positions, [&](const auto& entry) { return same(entry.first, entry.second); });
    if (positions.empty())
        return R::failure("topology", "every node and switch already sits where the fabric layout puts it");
    R moved = moveItems(s, positions);
    if (moved.ok())
        moved.value->text = "Arrange as fabric";
    return moved;
}

R addLink(const Scenario& s, const Catalog& catalog, const std::string& fromId, const std::string& toId)
{
    const std::string ends[2] = {fromId, toId};
    const Node* nodes[2] = {nullptr, nullptr};
    const Switch* switches[2] = {nullptr, nullptr};
    for (int e = 0; e < 2; ++e) {
        nodes[e] = s.topology.findNode(ends[e]);
        switches[e] = s.topology.findSwitch(ends[e]);
        if (!nodes[e] && !switches[e])
            return R::failure(e == 0 ? "link.from" : "link.to", "'" + ends[e] + "' is no node or switch");
    }
    if (fromId == toId)
        return R::failure("link.to", "a link needs two different ends");
    // A node offers all its NICs; a switch one port per NIC of a node on the other end.
    auto side = [&](int e) {
        if (nodes[e])
            return nodes[e]->nics.count * nodes[e]->nics.speedGbps;
        const Node* other = nodes[1 - e];
        return switches[e]->portSpeedGbps * (other ? std::max(other->nics.count, 1) : 1);
    };
    const double gbps = std::min(side(0), side(1));
    if (!(gbps > 0))
        return R::failure("link.bandwidth_gbps", "no network ports at one end of " + fromId + " – " + toId);
    double latency = 1.0;
    for (int e = 0; e < 2; ++e)
        if (switches[e])
            if (const SwitchTemplate* t = catalog.switchTemplate(switches[e]->templateId))
                latency = t->latencyUs;
    EditBuilder b(s);
    b.add(Link{IdAllocator(s).named(fromId + "-" + toId), fromId, toId, gbps, latency});
    return validated(std::move(b), catalog, "Link " + fromId + " and " + toId);
}

R pinJob(const Scenario& s, const Catalog& catalog, const std::string& jobId, const std::optional<Pin>& pin)
{
    const Job* j = s.findJob(jobId);
    if (!j)
        return R::failure("jobs[" + jobId + "]", "no job has this id");
    Job x = *j;
    x.pin = pin;
    std::string where;
    if (pin) {
        where = pin->node;
        if (pin->gpu)
            where += " GPU " + std::to_string(*pin->gpu);
        if (pin->migInstance)
            where += " instance " + std::to_string(*pin->migInstance);
    }
    EditBuilder b(s);
    b.update(x);
    return validated(std::move(b), catalog, pin ? "Pin " + jobId + " to " + where : "Unpin " + jobId);
}

R setNodeSharing(const Scenario& s, const Catalog& catalog, const std::vector<std::string>& nodeIds,
                 const SharingConfig& sharing)
{
    if (nodeIds.empty())
        return R::failure("sharing", "no node is selected");
    EditBuilder b(s);
    for (const std::string& id : nodeIds) {
        const Node* n = s.topology.findNode(id);
        if (!n)
            return R::failure("nodes[" + id + "]", "no node has this id");
        if (const GpuSpec* gpu = catalog.gpu(n->gpuId)) {
            Issues issues = validateSharing(sharing, *gpu, "nodes[" + id + "].sharing");
            if (hasErrors(issues))
                return R::failure(std::move(issues));
        }
        Node x = *n;
        x.sharing = sharing;
        x.gpuSharing.clear();
        b.update(x);
    }
    const std::string mode(displayName(sharing.mode));
    return validated(std::move(b), catalog,
                     nodeIds.size() == 1
                         ? "Set " + mode + " sharing on " + nodeIds[0]
                         : "Set " + mode + " sharing on " + std::to_string(nodeIds.size()) + " node(s)");
}

R setGpuSharing(const Scenario& s, const Catalog& catalog, const std::string& nodeId, int gpu,
                const SharingConfig& sharing)
{
    const Node* n = s.topology.findNode(nodeId);
    if (!n)
        return R::failure("nodes[" + nodeId + "]", "no node has this id");
    if (gpu < 0 || gpu >= n->gpuCount)
        return R::failure("nodes[" + nodeId + "].gpu_sharing",
                          "GPU " + std::to_string(gpu) + " is not one of its " + std::to_string(n->gpuCount) + " GPUs");
    Node x = *n;
    if (sharing == x.sharing)
        x.gpuSharing.erase(gpu); // the same as the node's: no override needed
    else
        x.gpuSharing[gpu] = sharing;
    EditBuilder b(s);
    b.update(x);
    return validated(std::move(b), catalog,
                     "Set " + std::string(displayName(sharing.mode)) + " sharing on " + nodeId + " GPU " +
                         std::to_string(gpu));
}

namespace {

/// The job a request describes, on top of `job` (a fresh one when adding).
Job jobFrom(const JobRequest& r, Job j, bool adding)
{
    const Job before = j;
    j.model.preset = r.preset;
    j.model.custom = r.preset.empty() ? r.custom : ModelArchitecture{};
    j.kind = r.kind;
    if (adding) { // an added job gets defaults for what the request does not say
        j.parallelism = {r.tp,
                         r.pp,
                         r.dp,
                         0,
                         false,
                         r.tp > 1 && j.kind != JobKind::Inference,
                         j.kind == JobKind::Inference ? Recompute::None : Recompute::Selective};
        j.batch = {1, r.dp * std::max(8, r.pp * 4)};
        if (!r.pinNode.empty())
            j.pin = Pin{r.pinNode, std::nullopt, std::nullopt};
    } else { // an edited one keeps its ZeRO stage, recomputation and per-replica batch
        j.parallelism.tp = r.tp;
        j.parallelism.pp = r.pp;
        j.parallelism.dp = r.dp;
        if (before.parallelism.dp != r.dp)
            j.batch.global = std::max(1, before.batch.global / std::max(1, before.parallelism.dp)) * r.dp;
    }
    if (j.kind == JobKind::Inference) {
        j.training.reset();
        if (!j.inference) {
            j.inference = InferenceSpec{r.amount, 4096, 256, 16};
            j.inference->inputTokens = 1024; // a chat prompt; the context admits up to 4,096 tokens
        }
        j.inference->requestsPerS = r.amount;
    } else {
        j.inference.reset();
        if (!j.training)
            j.training = TrainingSpec{r.amount * 1e9, 60.0};
        j.training->tokens = r.amount * 1e9;
    }
    if ((j.kind == JobKind::Lora || j.kind == JobKind::Qlora) && !j.lora)
        j.lora = LoraSpec{16, 32};
    return j;
}

} // namespace

R addJob(const Scenario& s, const Catalog& catalog, const JobRequest& r)
{
    IdAllocator ids(s);
    EditBuilder b(s);
    std::string tenantId = r.tenantId;
    std::string tenantName = r.newTenantName;
    if (tenantId.empty()) {
        Tenant t;
        t.name = r.newTenantName;
        if (t.name.find_first_not_of(' ') == std::string::npos)
            return R::failure("tenant.name", "name the new tenant");
        t.id = ids.named(idFromName(t.name, "tenant"));
        static const char* palette[] = {"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1"};
        t.color = palette[s.tenants.size() % 7];
        tenantId = t.id;
        b.add(t);
    } else if (const Tenant* existing = s.findTenant(tenantId))
        tenantName = existing->name;
    else
        return R::failure("tenant", "no tenant has the id '" + tenantId + "'");
    Job j = jobFrom(r, Job{}, true);
    const std::string model = r.preset.empty() ? std::string("custom") : r.preset;
    j.id = ids.named(model + "-" + std::string(enumName(j.kind)));
    const ModelPreset* preset = catalog.model(r.preset);
    j.name = (preset ? preset->name : std::string("Custom model")) + " " + std::string(enumName(j.kind));
    b.add(j, tenantId);
    return validated(std::move(b), catalog, "Add " + j.name + " for " + tenantName);
}

R editJob(const Scenario& s, const Catalog& catalog, const std::string& jobId, const JobRequest& r)
{
    const Job* j = s.findJob(jobId);
    if (!j)
        return R::failure("jobs[" + jobId + "]", "no job has this id");
    EditBuilder b(s);
    Job edited = jobFrom(r, *j, false);
    settlePlaceholders(*j, edited);
    b.update(edited);
    return validated(std::move(b), catalog, "Edit job " + j->name);
}

R renameScenario(const Scenario& s, const std::string& name)
{
    if (name.find_first_not_of(' ') == std::string::npos)
        return R::failure("name", "must not be empty");
    Scenario settings = s;
    settings.name = name;
    EditBuilder b(s);
    b.updateSettings(settings);
    return R::success(std::move(b).finish("Rename scenario"));
}

R changeScenario(const Scenario& before, const Catalog& catalog, const Scenario& after, const std::string& text,
                 const std::string& mergeKey)
{
    Edit e = diffEdit(before, after, text);
    e.mergeKey = mergeKey;
    return accepted(validateScenario(after, catalog), std::move(e));
}

R replaceScenario(const Scenario& before, const Catalog& catalog, Scenario after, const std::string& text)
{
    EditBuilder b(before);
    b.replaceWhole(std::move(after));
    return validated(std::move(b), catalog, text);
}

// ---- field patches -------------------------------------------------------------------------

namespace {

/// One step of a path inside an item: a key, or an index into an array.
struct Step
{
    std::string key;
    int index = -1;
};

/// "sharing.mig[0].profile" → sharing, mig, [0], profile.
std::optional<std::vector<Step>> splitPath(const std::string& rest)
{
    std::vector<Step> out;
    std::size_t i = 0;
    while (i < rest.size()) {
        if (rest[i] == '[') {
            const std::size_t close = rest.find(']', i);
            if (close == std::string::npos || close == i + 1)
                return std::nullopt;
            const std::string digits = rest.substr(i + 1, close - i - 1);
            if (digits.find_first_not_of("0123456789") != std::string::npos || digits.size() > 6)
                return std::nullopt;
            out.push_back({{}, std::stoi(digits)});
            i = close + 1;
            if (i < rest.size() && rest[i] == '.')
                ++i;
            continue;
        }
        const std::size_t end = rest.find_first_of(".[", i);
        const std::string key = rest.substr(i, end == std::string::npos ? std::string::npos : end - i);
        if (key.empty())
            return std::nullopt;
        out.push_back({key, -1});
        if (end == std::string::npos)
            break;
        i = rest[end] == '.' ? end + 1 : end;
    }
    if (out.empty())
        return std::nullopt;
    return out;
}

/// Sets (or, for null, removes) the value at `steps` inside `v`, making objects on the way.
/// An error message, or "" when it worked.
std::string setAt(QJsonValue& v, const std::vector<Step>& steps, std::size_t k, const QJsonValue& value)
{
    const Step& st = steps[k];
    const bool last = k + 1 == steps.size();
    if (st.index >= 0) {
        if (!v.isArray())
            return "[" + std::to_string(st.index) + "] indexes something that is not a list";
        QJsonArray arr = v.toArray();
        if (st.index > arr.size() || (st.index == arr.size() && (!last || value.isNull())))
            return "[" + std::to_string(st.index) + "] is past the end of a list of " + std::to_string(arr.size());
        if (last) {
            if (value.isNull())
                arr.removeAt(st.index);
            else if (st.index == arr.size())
                arr.append(value);
            else
                arr[st.index] = value;
        } else {
            QJsonValue inner = arr.at(st.index);
            if (auto e = setAt(inner, steps, k + 1, value); !e.empty())
                return e;
            arr[st.index] = inner;
        }
        v = arr;
        return {};
    }
    if (!v.isObject() && !v.isUndefined() && !v.isNull())
        return "'" + st.key + "' is a field of something that is not an object";
    QJsonObject o = v.toObject();
    const QString key = QString::fromStdString(st.key);
    if (last) {
        if (value.isNull())
            o.remove(key);
        else
            o[key] = value;
    } else {
        QJsonValue inner = o.value(key);
        if (auto e = setAt(inner, steps, k + 1, value); !e.empty())
            return e;
        o[key] = inner;
    }
    v = o;
    return {};
}

/// Where a patch lands in the file: the item's JSON path and its id path.
struct Target
{
    std::string filePath; ///< "topology.nodes[3]"
    std::string idPath;   ///< "nodes[node-3]"
};

} // namespace

Result<FieldPatch> parseFieldPatch(const std::string& text)
{
    const std::size_t eq = text.find('=');
    if (eq == std::string::npos || eq == 0)
        return Result<FieldPatch>::failure(text, "expected PATH=VALUE, e.g. nodes[node-3].sharing.mode=mig");
    // The id inside [...] may hold '=' only if quoted; ids do not, so the first '=' splits.
    const std::string path = text.substr(0, eq);
    const QByteArray raw = QByteArray::fromStdString(text.substr(eq + 1));
    QJsonParseError err{};
    const QJsonDocument doc = QJsonDocument::fromJson("[" + raw + "]", &err);
    FieldPatch p{path, {}};
    if (err.error == QJsonParseError::NoError && doc.isArray() && doc.array().size() == 1) {
        // A key given twice in the value is refused as in a file (Qt would keep one of them).
        if (const Issues twice = io::duplicateJsonKeys("[" + raw + "]", 1); !twice.empty())
            return Result<FieldPatch>::failure(path, "the value: " + twice.front().message);
        p.value = doc.array().at(0);
    } else {
        p.value = QString::fromUtf8(raw); // a bare word: a string
    }
    return Result<FieldPatch>::success(std::move(p));
}

R patchFields(const Scenario& s, const Catalog& catalog, const std::vector<FieldPatch>& patches)
{
    QJsonValue root = io::scenarioToJson(s);
    std::vector<Target> targets;
    std::string text;
    for (const FieldPatch& p : patches) {
        const std::string& path = p.path;
        std::string list, id, rest;
        const std::size_t open = path.find('[');
        const std::size_t dot = path.find('.');
        static const std::set<std::string> lists = {"groups", "nodes", "switches", "links", "tenants", "jobs"};
        if (open != std::string::npos && (dot == std::string::npos || open < dot) &&
            lists.count(path.substr(0, open))) {
            const std::size_t close = path.find(']', open);
            if (close == std::string::npos || close == open + 1)
                return R::failure(path, "expected LIST[ID].FIELD, e.g. nodes[node-3].sharing.mode");
            list = path.substr(0, open);
            id = path.substr(open + 1, close - open - 1);
            if (close + 1 >= path.size() || path[close + 1] != '.')
                return R::failure(path, "name a field of " + list + "[" + id + "], e.g. " + list + "[" + id + "].name");
            rest = path.substr(close + 2);
        } else {
            static const std::set<std::string> settings = {"name", "description", "pricing", "placement_policy",
                                                           "assumptions"};
            const std::string head = path.substr(0, std::min(path.find_first_of(".["), path.size()));
            if (!settings.count(head))
                return R::failure(
                    path, "unknown field: address an item as groups|nodes|switches|links|tenants|jobs[ID].FIELD "
                          "or a scenario field (name, description, pricing, placement_policy, assumptions)");
            rest = path;
        }
        auto steps = splitPath(rest);
        if (!steps)
            return R::failure(path, "is not a field path (keys separated by '.', list positions as [N])");
        if (!list.empty() && (*steps)[0].key == "id")
            return R::failure(path, "an id cannot be patched: other items refer to it");
        if (list == "tenants" && (*steps)[0].key == "jobs")
            return R::failure(path, "patch a job as jobs[ID].FIELD");
        // Find the item in the file.
        QJsonObject top = root.toObject();
        std::string error;
        auto patchIn = [&](QJsonArray& arr, const std::string& filePrefix) -> bool {
            for (qsizetype i = 0; i < arr.size(); ++i) {
                QJsonObject o = arr.at(i).toObject();
                if (o.value("id").toString().toStdString() != id)
                    continue;
                QJsonValue item = o;
                error = setAt(item, *steps, 0, p.value);
                arr[i] = item;
                targets.push_back({filePrefix + "[" + std::to_string(i) + "]", list + "[" + id + "]"});
                return true;
            }
            return false;
        };
        bool found = false;
        if (list.empty()) {
            QJsonValue whole = top;
            error = setAt(whole, *steps, 0, p.value);
            top = whole.toObject();
            found = true;
        } else if (list == "tenants" || list == "jobs") {
            QJsonArray tenants = top.value("tenants").toArray();
            if (list == "tenants")
                found = patchIn(tenants, "tenants");
            else
                for (qsizetype t = 0; t < tenants.size() && !found; ++t) {
                    QJsonObject to = tenants.at(t).toObject();
                    QJsonArray jobs = to.value("jobs").toArray();
                    if ((found = patchIn(jobs, "tenants[" + std::to_string(t) + "].jobs"))) {
                        to["jobs"] = jobs;
                        tenants[t] = to;
                    }
                }
            top["tenants"] = tenants;
        } else {
            QJsonObject topo = top.value("topology").toObject();
            QJsonArray arr = topo.value(QString::fromStdString(list)).toArray();
            found = patchIn(arr, "topology." + list);
            topo[QString::fromStdString(list)] = arr;
            top["topology"] = topo;
        }
        if (!found) {
            const std::string kind = list == "switches" ? "switch" : list.substr(0, list.size() - 1);
            return R::failure(list + "[" + id + "]", "no " + kind + " has this id");
        }
        if (!error.empty())
            return R::failure(path, error);
        root = top;
        text += (text.empty() ? "Set " : ", ") + path;
    }
    io::ScenarioReadResult read = io::readScenarioJson(root.toObject(), catalog);
    // Say where by id: "topology.nodes[3].sharing" → "nodes[node-3].sharing".
    for (Issue& i : read.issues)
        for (const Target& t : targets)
            if (i.path.rfind(t.filePath, 0) == 0 &&
                (i.path.size() == t.filePath.size() || i.path[t.filePath.size()] == '.' ||
                 i.path[t.filePath.size()] == '['))
                i.path = t.idPath + i.path.substr(t.filePath.size());
    if (!read.ok())
        return R::failure(std::move(read.issues));
    for (Tenant& t : read.value->tenants) // a placeholder set by a patch is no longer one
        for (Job& j : t.jobs)
            if (const Job* was = s.findJob(j.id))
                settlePlaceholders(*was, j);
    return R::success(diffEdit(s, *read.value, text), std::move(read.issues));
}

} // namespace gp::document
