// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// Slurm's nodes and jobs -> the cluster inventory (docs/cluster-import.md#slurm). GRES strings as
// slurm.conf(5) and gres.conf(5) write them ("gpu:h100:4,gpu:1g.10gb:7", "gpu:a100:4(S:0-1)",
// "mps:400", "shard:16"); jobs' "tres_per_node"/"TresPerNode" ("gres:gpu:h100:2", "gres/gpu=2").
#include "clusterinventory.h"
#include "jsonfile.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QString>

#include <cstdlib>
#include <map>
#include <optional>
#include <regex>
#include <set>

namespace gp::io {

namespace {

std::string slurmText(const QJsonValue& v) { return v.toString().toStdString(); }

struct SlurmGres
{
    std::string name; ///< gpu, mps, shard
    std::string type; ///< "" when untyped
    int count = 0;
};

/// "gpu:h100:4,gpu:1g.10gb:7(S:0)" -> items; a job's "gres:gpu:h100:2" or "gres/gpu:h100=2" alike.
std::optional<std::vector<SlurmGres>> parseGres(const std::string& text)
{
    std::vector<SlurmGres> out;
    if (text.empty() || text == "(null)" || text == "N/A")
        return out;
    static const std::regex item(R"(^(?:gres[:/])?([A-Za-z0-9_]+)(?::([^:=()]+))?[:=]([0-9]{1,6})(?:\([^)]*\))?$)");
    std::size_t from = 0;
    while (from <= text.size()) {
        // Items are separated by commas outside parentheses ("gpu:a100:4(S:0-1),mps:400").
        std::size_t end = from;
        int depth = 0;
        while (end < text.size() && (text[end] != ',' || depth > 0)) {
            depth += text[end] == '(' ? 1 : text[end] == ')' ? -1 : 0;
            ++end;
        }
        const std::string part = text.substr(from, end - from);
        std::smatch m;
        if (!std::regex_match(part, m, item))
            return std::nullopt;
        out.push_back({m[1].str(), m[2].str(), std::stoi(m[3].str())});
        from = end + 1;
    }
    return out;
}

/// Names one host list may expand to: more than any cluster's job spans, and a bound on what a
/// short list such as "n[0-99999999]" could make.
constexpr std::size_t kMaxHostNames = 100000;

/// Slurm's host lists: "gpu[01-03,07],login1" -> gpu01 gpu02 gpu03 gpu07 login1.
std::vector<std::string> expandHostList(const std::string& list)
{
    std::vector<std::string> out;
    std::size_t i = 0;
    while (i < list.size()) {
        std::size_t end = i;
        int depth = 0;
        while (end < list.size() && (list[end] != ',' || depth > 0)) {
            depth += list[end] == '[' ? 1 : list[end] == ']' ? -1 : 0;
            ++end;
        }
        const std::string part = list.substr(i, end - i);
        const auto open = part.find('[');
        if (open == std::string::npos || part.back() != ']') {
            if (!part.empty() && part != "(null)")
                out.push_back(part);
        } else {
            const std::string prefix = part.substr(0, open);
            const std::string ranges = part.substr(open + 1, part.size() - open - 2);
            std::size_t r = 0;
            while (r <= ranges.size()) {
                std::size_t comma = ranges.find(',', r);
                if (comma == std::string::npos)
                    comma = ranges.size();
                const std::string range = ranges.substr(r, comma - r);
                const auto dash = range.find('-');
                const std::string lo = range.substr(0, dash);
                const std::string hi = dash == std::string::npos ? lo : range.substr(dash + 1);
                if (!lo.empty() && !hi.empty() && lo.size() < 9 && hi.size() < 9 &&
                    lo.find_first_not_of("0123456789") == std::string::npos &&
                    hi.find_first_not_of("0123456789") == std::string::npos) {
                    for (long n = std::stol(lo), last = std::stol(hi); n <= last && out.size() < kMaxHostNames; ++n) {
                        std::string num = std::to_string(n);
                        if (num.size() < lo.size())
                            num.insert(0, lo.size() - num.size(), '0'); // zero-padded like the range
                        out.push_back(prefix + num);
                    }
                }
                r = comma + 1;
            }
        }
        i = end + 1;
    }
    return out;
}

/// One record of `scontrol show ... --oneliner`: Key=Value pairs; a value may hold spaces
/// (OS=Linux 6.1 #1 SMP), so a word without '=' continues the value before it.
std::map<std::string, std::string> oneliner(const std::string& line)
{
    std::map<std::string, std::string> out;
    std::string last;
    std::size_t i = 0;
    while (i < line.size()) {
        std::size_t end = line.find(' ', i);
        if (end == std::string::npos)
            end = line.size();
        const std::string word = line.substr(i, end - i);
        const auto eq = word.find('=');
        if (!word.empty()) {
            if (eq != std::string::npos && eq > 0 && word.find_first_of("()") > eq) {
                last = word.substr(0, eq);
                out[last] = word.substr(eq + 1);
            } else if (!last.empty())
                out[last] += " " + word;
        }
        i = end + 1;
    }
    return out;
}

/// A field that is a number in 22.05 and {"set": true, "number": N} in later versions.
int slurmNumber(const QJsonValue& v)
{
    if (v.isObject())
        return v.toObject().value("number").toInt();
    return v.toInt();
}

/// A job state: a string in 22.05, an array of strings later.
std::string slurmState(const QJsonValue& v)
{
    if (v.isArray())
        return v.toArray().isEmpty() ? std::string() : slurmText(v.toArray().first());
    return slurmText(v);
}

struct SlurmNodeRecord
{
    std::string name;
    std::string gres;
    std::string where;
};

struct SlurmJobRecord
{
    std::string id;
    std::string arrayId; ///< "" when not an array task
    std::string taskId;
    std::string name;
    std::string account;
    std::string user;
    std::string state;
    std::string tresPerNode;
    int nodeCount = 1;
    std::string nodes;
    std::string where;
};

bool slurmIsJson(const QByteArray& bytes) { return bytes.trimmed().startsWith('{'); }

std::vector<std::string> slurmLines(const QByteArray& bytes)
{
    std::vector<std::string> out;
    for (const QByteArray& l : bytes.split('\n'))
        if (!l.trimmed().isEmpty())
            out.push_back(l.trimmed().toStdString());
    return out;
}

std::optional<std::vector<SlurmNodeRecord>> readSlurmNodes(const ClusterInput& in, Issues& out)
{
    std::vector<SlurmNodeRecord> nodes;
    if (slurmIsJson(in.bytes)) {
        auto root = parseJsonObject(in.bytes, out);
        if (!root)
            return std::nullopt;
        if (!root->value("nodes").isArray()) {
            out.push_back(Issue::error("nodes", "missing: not what `sinfo --json` prints (an object with \"nodes\")"));
            return std::nullopt;
        }
        const QJsonArray arr = root->value("nodes").toArray();
        for (qsizetype i = 0; i < arr.size(); ++i) {
            const QJsonObject n = arr.at(i).toObject();
            nodes.push_back(
                {slurmText(n.value("name")), slurmText(n.value("gres")), "nodes[" + std::to_string(i) + "].gres"});
        }
        return nodes;
    }
    const auto ls = slurmLines(in.bytes);
    for (std::size_t i = 0; i < ls.size(); ++i) {
        auto rec = oneliner(ls[i]);
        if (!rec.count("NodeName")) {
            out.push_back(Issue::error("line " + std::to_string(i + 1),
                                       "not a node: expected `scontrol show nodes --oneliner` (NodeName=... Gres=...) "
                                       "or `sinfo --json`"));
            return std::nullopt;
        }
        nodes.push_back({rec["NodeName"], rec["Gres"], "line " + std::to_string(i + 1) + ", Gres"});
    }
    return nodes;
}

std::optional<std::vector<SlurmJobRecord>> readSlurmJobs(const ClusterInput& in, Issues& out)
{
    std::vector<SlurmJobRecord> jobs;
    if (slurmIsJson(in.bytes)) {
        auto root = parseJsonObject(in.bytes, out);
        if (!root)
            return std::nullopt;
        if (!root->value("jobs").isArray()) {
            out.push_back(Issue::error("jobs", "missing: not what `squeue --json` prints (an object with \"jobs\")"));
            return std::nullopt;
        }
        const QJsonArray arr = root->value("jobs").toArray();
        for (qsizetype i = 0; i < arr.size(); ++i) {
            const QJsonObject j = arr.at(i).toObject();
            SlurmJobRecord r;
            r.id = std::to_string(slurmNumber(j.value("job_id")));
            const int task = j.value("array_task_id").isNull() ? -1 : slurmNumber(j.value("array_task_id"));
            if (slurmNumber(j.value("array_job_id")) != 0 && task >= 0) {
                r.arrayId = std::to_string(slurmNumber(j.value("array_job_id")));
                r.taskId = std::to_string(task);
            }
            r.name = slurmText(j.value("name"));
            r.account = slurmText(j.value("account"));
            r.user = slurmText(j.value("user_name"));
            r.state = slurmState(j.value("job_state"));
            r.tresPerNode = slurmText(j.value("tres_per_node"));
            r.nodeCount = std::max(slurmNumber(j.value("node_count")), 1);
            r.nodes = slurmText(j.value("nodes"));
            r.where = "jobs[" + std::to_string(i) + "].tres_per_node";
            jobs.push_back(std::move(r));
        }
        return jobs;
    }
    const auto ls = slurmLines(in.bytes);
    for (std::size_t i = 0; i < ls.size(); ++i) {
        auto rec = oneliner(ls[i]);
        if (!rec.count("JobId")) {
            out.push_back(
                Issue::error("line " + std::to_string(i + 1),
                             "not a job: expected `scontrol show jobs --oneliner` (JobId=... TresPerNode=...) "
                             "or `squeue --json`"));
            return std::nullopt;
        }
        SlurmJobRecord r;
        r.id = rec["JobId"];
        if (rec.count("ArrayJobId") && rec.count("ArrayTaskId")) {
            r.arrayId = rec["ArrayJobId"];
            r.taskId = rec["ArrayTaskId"];
        }
        r.name = rec["JobName"];
        r.account = rec["Account"] == "(null)" ? std::string() : rec["Account"];
        r.user = rec["UserId"].substr(0, rec["UserId"].find('('));
        r.state = rec["JobState"];
        r.tresPerNode = rec.count("TresPerNode") ? rec["TresPerNode"] : std::string();
        const std::string numNodes = rec["NumNodes"].substr(0, rec["NumNodes"].find('-')); // "2-4" while pending
        r.nodeCount = numNodes.size() >= 1 && numNodes.size() <= 6 &&
                              numNodes.find_first_not_of("0123456789") == std::string::npos
                          ? std::max(std::stoi(numNodes), 1)
                          : 1;
        r.nodes = rec["NodeList"];
        r.where = "line " + std::to_string(i + 1) + ", TresPerNode";
        jobs.push_back(std::move(r));
    }
    return jobs;
}

/// A MIG GRES type: "1g.10gb" or "<gpu>_1g.10gb" (as Slurm's NVML autodetection names them).
std::optional<std::pair<std::string, std::string>> migType(const std::string& type)
{
    static const std::regex re(R"(^(?:(.*)_)?([0-9]+g\.[0-9]+gb(?:\+me)?)$)");
    std::smatch m;
    if (!std::regex_match(type, m, re))
        return std::nullopt;
    return std::make_pair(m[1].str(), m[2].str());
}

} // namespace

Result<Scenario> importSlurm(const ClusterInput& nodesIn, const ClusterInput& jobsIn,
                             const ClusterImportOptions& options, const Catalog& catalog)
{
    Issues nodeIssues;
    auto nodeRecords = readSlurmNodes(nodesIn, nodeIssues);
    inFile(nodeIssues, nodesIn.name.toStdString());
    Issues jobIssues;
    auto jobRecords = readSlurmJobs(jobsIn, jobIssues);
    inFile(jobIssues, jobsIn.name.toStdString());
    nodeIssues.insert(nodeIssues.end(), jobIssues.begin(), jobIssues.end());
    if (!nodeRecords || !jobRecords || hasErrors(nodeIssues))
        return Result<Scenario>::failure(std::move(nodeIssues));

    Issues issues;
    const auto fail = [&](const std::string& where, const std::string& why, const ClusterInput& in) {
        Issue i = Issue::error(where, why);
        i.file = in.name.toStdString();
        issues.push_back(std::move(i));
    };
    std::vector<InventoryNode> nodes;
    for (const SlurmNodeRecord& rec : *nodeRecords) {
        auto gres = parseGres(rec.gres);
        if (!gres) {
            fail(rec.where, "'" + rec.gres + "' is not a GRES list (name[:type]:count, ...)", nodesIn);
            continue;
        }
        std::string product; // the whole GPUs' type, or a MIG type's prefix
        int whole = 0;
        int mps = 0;
        int shards = 0;
        std::vector<std::string> instances;
        std::string migParent;
        for (const SlurmGres& g : *gres) {
            // Sums saturate: a node line of thousands of GRES items must not wrap around.
            if (g.name == "mps")
                mps = addUnits(mps, g.count);
            else if (g.name == "shard")
                shards = addUnits(shards, g.count);
            else if (g.name != "gpu")
                continue;
            else if (auto m = migType(g.type)) {
                if (instances.size() + static_cast<std::size_t>(g.count) > 7 * kMaxImportedGpus)
                    break; // refused below, before anything this large is packed
                instances.insert(instances.end(), static_cast<std::size_t>(g.count), m->second);
                if (!m->first.empty())
                    migParent = m->first;
            } else {
                if (!product.empty() && product != g.type) {
                    fail(rec.where,
                         "node '" + rec.name + "' has GPUs of two types ('" + product + "' and '" + g.type +
                             "'); a gpuplan node has one GPU model",
                         nodesIn);
                    break;
                }
                product = g.type.empty() ? "gpu" : g.type;
                whole = addUnits(whole, g.count);
            }
        }
        if (product.empty())
            product = migParent;
        if (whole == 0 && instances.empty())
            continue; // not a GPU node
        if (product.empty()) {
            fail(rec.where,
                 "node '" + rec.name + "' has MIG GRES without the GPU they are on; name it with --map-gpu gpu=ID",
                 nodesIn);
            continue;
        }
        auto gpuId = gpuForProduct(product, rec.where, options, catalog);
        if (!gpuId) {
            for (Issue i : gpuId.issues) {
                i.file = nodesIn.name.toStdString();
                issues.push_back(std::move(i));
            }
            continue;
        }
        const GpuSpec& gpu = *catalog.gpu(*gpuId);
        InventoryNode n{rec.name, *gpuId, {}};
        SharingConfig shared;
        if (mps > 0 && whole > 0) {
            shared.mode =
                SharingMode::Mps; // Slurm's gres/mps: shares of each GPU's MPS server (gres.html, "MPS Management")
        } else if (shards > 0 && whole > 0 && shards / whole > 1) {
            shared.mode = SharingMode::TimeSlicing; // gres/shard: GPUs shared without isolation (gres.html, "Sharding")
            shared.replicas = shards / whole;
        }
        for (const std::string& p : instances)
            if (!migProfileOf(gpu, p)) {
                fail(rec.where, "'" + p + "' is not a MIG profile of " + gpu.name + " (node '" + rec.name + "')",
                     nodesIn);
                instances.clear();
                break;
            }
        if (whole > kMaxImportedGpus || instances.size() >= 7 * kMaxImportedGpus) {
            fail(rec.where,
                 "node '" + rec.name + "' has " + std::to_string(whole) + " GPUs and " +
                     std::to_string(instances.size()) + " MIG instances; a gpuplan node has at most " +
                     std::to_string(kMaxImportedGpus) + " GPUs",
                 nodesIn);
            continue;
        }
        n.gpus.assign(static_cast<std::size_t>(whole), shared);
        for (const mig::Layout& l : packMigInstances(gpu, instances)) {
            SharingConfig c;
            c.mode = SharingMode::Mig;
            c.migInstances = l;
            n.gpus.push_back(c);
        }
        if (n.gpus.size() > static_cast<std::size_t>(kMaxImportedGpus)) {
            fail(rec.where,
                 "node '" + rec.name + "' has " + std::to_string(n.gpus.size()) + " GPUs; a gpuplan node has at most " +
                     std::to_string(kMaxImportedGpus),
                 nodesIn);
            continue;
        }
        nodes.push_back(std::move(n));
    }

    std::map<std::string, InventoryWorkload> workloads;
    for (const SlurmJobRecord& j : *jobRecords) {
        static const std::set<std::string> live{"RUNNING",    "PENDING",  "SUSPENDED", "CONFIGURING",
                                                "COMPLETING", "REQUEUED", "RESIZING"};
        if (!live.count(j.state))
            continue;
        auto gres = parseGres(j.tresPerNode);
        if (!gres) {
            fail(j.where, "'" + j.tresPerNode + "' is not a GRES request (gres:gpu[:type]:count)", jobsIn);
            continue;
        }
        int perNode = 0;
        for (const SlurmGres& g : *gres) {
            if (g.name == "gpu" || g.name == "shard" || g.name == "mps")
                perNode = addUnits(perNode, g.name == "mps" ? (g.count + 99) / 100 : g.count);
            else if (g.name.find("gpu") != std::string::npos)
                fail(j.where,
                     "job " + j.id + " requests GRES '" + g.name +
                         "', which gpuplan does not model (it reads gpu, shard and mps)",
                     jobsIn);
        }
        if (perNode == 0)
            continue;
        const long long units = static_cast<long long>(perNode) * j.nodeCount; // each at most ~10^6
        if (perNode > kMaxWorkloadUnits || units > kMaxWorkloadUnits) {
            fail(j.where,
                 "job " + j.id + " holds " + std::to_string(perNode) + " GPU units per node on " +
                     std::to_string(j.nodeCount) + " nodes, more than the " + std::to_string(kMaxWorkloadUnits) +
                     " units one imported workload may hold",
                 jobsIn);
            continue;
        }
        std::string tenant = options.slurmTenantByUser ? j.user : j.account;
        if (tenant.empty())
            tenant = j.user.empty() ? "unknown" : j.user;
        const std::string key = j.arrayId.empty() ? "job " + j.id : "array " + j.arrayId;
        InventoryWorkload& w = workloads[tenant + "\n" + key];
        w.tenant = tenant;
        w.scope = j.account;
        w.workload = j.arrayId.empty() ? "SlurmJob/" + j.id : "SlurmArray/" + j.arrayId;
        w.name = j.name.empty() ? key : j.name;
        w.serving = false;
        if (w.units + units > kMaxWorkloadUnits) {
            fail(j.where,
                 key + " holds more than the " + std::to_string(kMaxWorkloadUnits) +
                     " GPU units one imported workload may hold",
                 jobsIn);
            continue;
        }
        w.units = addUnits(w.units, static_cast<int>(units));
        w.members.push_back(j.arrayId.empty() ? j.id : j.arrayId + "_" + j.taskId);
        if (j.state == "RUNNING" || j.state == "SUSPENDED" || j.state == "COMPLETING")
            for (const std::string& n : expandHostList(j.nodes))
                w.nodes.insert(n);
    }
    if (hasErrors(issues))
        return Result<Scenario>::failure(std::move(issues));
    std::vector<InventoryWorkload> list;
    for (auto& [k, w] : workloads)
        list.push_back(std::move(w));
    return buildImportedScenario(nodes, list, "slurm", options, catalog, std::move(issues));
}

} // namespace gp::io
