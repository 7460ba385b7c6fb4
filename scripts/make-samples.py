#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: 2026 The gpuplan developers
"""Writes the bundled samples in data/samples/ (maintainers only; the product never runs this).

After running it, canonicalise the files with:
    build/app/gpuplan-cli format --in-place data/samples/*.json
so that they are byte-identical to what gpuplan writes.
"""
import json
import os

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "samples")


def node(i, template, name=None, group="", x=0, y=0, sharing=None, gpu_sharing=None):
    n = {"id": f"node-{i:03d}", "name": name or f"node-{i:03d}", "template": template,
         "group": group, "position": {"x": x, "y": y},
         "sharing": sharing or {"mode": "exclusive"}}
    if gpu_sharing:
        n["gpu_sharing"] = gpu_sharing
    return n


def switch(sid, template, tier, x, y, group=""):
    return {"id": sid, "name": sid, "template": template, "tier": tier, "group": group,
            "position": {"x": x, "y": y}}


def link(lid, a, b, gbps, lat=1.0):
    return {"id": lid, "from": a, "to": b, "bandwidth_gbps": gbps, "latency_us": lat}


def job(jid, name, kind, preset, tp=1, pp=1, dp=1, micro=1, global_batch=None, **extra):
    j = {"id": jid, "name": name, "kind": kind, "model": {"preset": preset},
         "parallelism": {"tp": tp, "pp": pp, "dp": dp, "zero_stage": extra.pop("zero", 1 if kind != "inference" else 0),
                         "sequence_parallel": tp > 1 and kind != "inference",
                         "recompute": extra.pop("recompute", "selective" if kind != "inference" else "none")},
         "batch": {"micro": micro, "global": global_batch or micro * dp}}
    j.update(extra)
    return j


def two_tier(nodes, per_leaf, spines, leaf_template, node_gbps, uplink_gbps, y0=0):
    """Leaf switches under `per_leaf` nodes each, every leaf linked to every spine."""
    switches, links = [], []
    leaves = (len(nodes) + per_leaf - 1) // per_leaf
    for s in range(spines):
        switches.append(switch(f"spine-{s:02d}", leaf_template, "spine", s * 240, y0))
    for l in range(leaves):
        sid = f"leaf-{l:02d}"
        switches.append(switch(sid, leaf_template, "leaf", l * 320, y0 + 300, group=f"rack-{l:02d}"))
        for s in range(spines):
            links.append(link(f"{sid}-spine-{s:02d}", sid, f"spine-{s:02d}", uplink_gbps, 1.0))
        for n in nodes[l * per_leaf:(l + 1) * per_leaf]:
            n["group"] = f"rack-{l:02d}"
            links.append(link(f"{n['id']}-{sid}", n["id"], sid, node_gbps, 1.0))
    groups = [{"id": f"rack-{l:02d}", "name": f"Rack {l + 1}", "kind": "rack", "parent": ""} for l in range(leaves)]
    return groups, switches, links


def scenario(name, description, groups, nodes, switches, links, tenants, preset):
    return {"format_version": 1, "name": name, "description": description,
            "topology": {"groups": groups, "nodes": nodes, "switches": switches, "links": links},
            "tenants": tenants, "pricing": {"preset": preset, "gpu_hour_usd": {}}, "assumptions": {}}


def grid(i, cols, dx=320, dy=260, y0=600):
    return (i % cols) * dx, y0 + (i // cols) * dy


def dgx_three_tenants():
    nodes = []
    for i in range(8):
        x, y = grid(i, 4)
        sharing = {"mode": "exclusive"}
        gpu_sharing = None
        if i == 6:  # inference node carved into MIG instances
            sharing = {"mode": "mig", "mig": [{"profile": "3g.40gb", "start": 0}, {"profile": "3g.40gb", "start": 4}]}
            gpu_sharing = [{"gpu": 7, "mode": "mig", "mig": [{"profile": "4g.40gb", "start": 0},
                                                             {"profile": "2g.20gb", "start": 4},
                                                             {"profile": "1g.10gb", "start": 6}]}]
        if i == 7:  # the fine-tuning tenant gets its GPUs through VMs
            sharing = {"mode": "passthrough"}
        nodes.append(node(i + 1, "dgx-h100", x=x, y=y, sharing=sharing, gpu_sharing=gpu_sharing))
    groups, switches, links = two_tier(nodes, 4, 2, "qm9700", 3200, 1600, y0=0)
    tenants = [
        {"id": "frontier", "name": "Frontier Lab (pre-training)", "color": "#4e79a7", "priority": 10,
         "sla": {"max_penalty_pct": 3, "deadline_days": 30},
         "jobs": [job("frontier-70b", "Llama 3 70B pre-training", "pretraining", "llama3-70b", tp=8, pp=2, dp=2,
                      micro=1, global_batch=512, training={"tokens": 5e10, "checkpoint_interval_min": 60})]},
        {"id": "acme", "name": "Acme Retail (fine-tuning)", "color": "#f28e2b", "priority": 5,
         "sla": {"max_penalty_pct": 10, "deadline_days": 3},
         "jobs": [job("acme-ft", "Llama 3 8B full fine-tune", "full_finetune", "llama3-8b", tp=1, pp=1, dp=8, micro=1,
                      global_batch=128, zero=3, recompute="full",
                      training={"tokens": 2e9, "checkpoint_interval_min": 30}),
                  job("acme-lora", "Llama 2 13B LoRA", "lora", "llama2-13b", dp=2, micro=1, global_batch=64, zero=0,
                      recompute="full",
                      training={"tokens": 5e8, "checkpoint_interval_min": 30}, lora={"rank": 16, "alpha": 32})]},
        {"id": "chatco", "name": "ChatCo (inference)", "color": "#59a14f", "priority": 8,
         "sla": {"max_penalty_pct": 5},
         "jobs": [job("chat-8b", "Llama 3 8B chat API", "inference", "llama3-8b", dp=4, pin={"node": "node-007"},
                      inference={"requests_per_s": 20, "context_tokens": 4096, "output_tokens": 512, "concurrency": 32}),
                  job("chat-70b", "Llama 3 70B chat API", "inference", "llama3-70b", tp=4, dp=1, precision="fp8",
                      inference={"requests_per_s": 5, "context_tokens": 8192, "output_tokens": 512, "concurrency": 16})]},
    ]
    return scenario("DGX H100 pod: three tenants",
                    "Eight DGX H100 nodes on a two-leaf NDR fabric shared by a pre-training lab, a fine-tuning "
                    "customer (on passthrough VMs) and an inference service (on MIG instances).",
                    groups, nodes, switches, links, tenants, "lambda-on-demand-2025")


def mixed_sharing_lab():
    nodes = [
        node(1, "dgx-a100-640gb", name="vgpu-a100", x=0, y=600,
             sharing={"mode": "vgpu", "vgpu": {"profile": "A100D-20C", "scheduler": "equal_share"}}),
        node(2, "pcie-l40s-8", name="timeslice-l40s", x=320, y=600, sharing={"mode": "time_slicing", "replicas": 4}),
        node(3, "pcie-h100-8", name="mps-h100", x=640, y=600,
             sharing={"mode": "mps", "mps": {"active_thread_pct": 50, "memory_limit_gib": 38}}),
        node(4, "dgx-a100-320gb", name="mig-a100", x=960, y=600,
             sharing={"mode": "mig", "mig": [{"profile": "1g.5gb", "start": i} for i in range(7)]},
             gpu_sharing=[{"gpu": g, "mode": "mig", "mig": [{"profile": "3g.20gb", "start": 0},
                                                            {"profile": "2g.10gb", "start": 4},
                                                            {"profile": "1g.5gb", "start": 6}]} for g in (4, 5, 6, 7)]),
    ]
    switches = [switch("tor-1", "sn4700", "leaf", 480, 200)]
    links = [link(f"{n['id']}-tor-1", n["id"], "tor-1", 400, 2.0) for n in nodes]
    tenants = [
        {"id": "research", "name": "University research", "color": "#e15759", "priority": 3,
         "sla": {"max_penalty_pct": 25},
         "jobs": [job("notebooks", "Notebook fine-tunes", "qlora", "llama2-7b", micro=1, global_batch=32, zero=0,
                      recompute="full",
                      training={"tokens": 1e8, "checkpoint_interval_min": 20}, lora={"rank": 64, "alpha": 16})]},
        {"id": "startup", "name": "Inference start-up", "color": "#76b7b2", "priority": 5,
         "sla": {"max_penalty_pct": 8},
         "jobs": [job("embed", "Llama 2 7B summariser", "inference", "llama2-7b", dp=8, precision="int8",
                      inference={"requests_per_s": 50, "context_tokens": 2048, "output_tokens": 256, "concurrency": 8}),
                  job("mixtral", "Mixtral 8x7B API", "inference", "mixtral-8x7b", tp=2, dp=2, precision="fp8",
                      inference={"requests_per_s": 10, "context_tokens": 8192, "output_tokens": 512, "concurrency": 16})]},
    ]
    sc = scenario("Mixed sharing lab",
                    "Four nodes, each shared differently: vGPU on A100 80GB, time-slicing on L40S, MPS on H100 PCIe, "
                    "MIG on A100 40GB, so the sharing modes can be compared on one page. AWS has no H100 PCIe "
                    "instance: its price is Lambda's 1x H100 PCIe on-demand list price (2025).",
                    [], nodes, switches, links, tenants, "aws-on-demand-2024")
    sc["pricing"]["gpu_hour_usd"] = {"h100-pcie-80gb": 2.49}
    return sc


def fabric_64():
    nodes = [node(i + 1, "dgx-h100", x=grid(i, 16)[0], y=grid(i, 16)[1]) for i in range(64)]
    groups, switches, links = two_tier(nodes, 4, 16, "qm9700", 3200, 800)
    tenants = [
        {"id": "lab-a", "name": "Lab A", "color": "#4e79a7", "priority": 10, "sla": {"max_penalty_pct": 3, "deadline_days": 21},
         "jobs": [job("gpt3", "GPT-3 175B pre-training", "pretraining", "gpt3-175b", tp=8, pp=8, dp=4, micro=1,
                      global_batch=1536, training={"tokens": 3e11, "checkpoint_interval_min": 120})]},
        {"id": "lab-b", "name": "Lab B", "color": "#b07aa1", "priority": 8, "sla": {"max_penalty_pct": 5, "deadline_days": 14},
         "jobs": [job("l70", "Llama 3 70B continued pre-training", "pretraining", "llama3-70b", tp=8, pp=4, dp=8,
                      micro=1, global_batch=1024, training={"tokens": 1e11, "checkpoint_interval_min": 60})]},
    ]
    return scenario("64-node DGX H100, two-tier InfiniBand",
                    "512 H100 GPUs: 16 NDR leaf switches (four nodes each, 1:1 to 16 spines) shared by two "
                    "pre-training labs.", groups, nodes, switches, links, tenants, "aws-on-demand-2024")


def cluster_250():
    nodes = [node(i + 1, "dgx-h100", x=grid(i, 25)[0], y=grid(i, 25)[1]) for i in range(250)]
    groups, switches, links = two_tier(nodes, 4, 32, "qm9700", 3200, 400)
    tenants = [
        {"id": "foundation", "name": "Foundation model team", "color": "#4e79a7", "priority": 10,
         "sla": {"max_penalty_pct": 3, "deadline_days": 60},
         "jobs": [job("l405", "Llama 3.1 405B pre-training", "pretraining", "llama3-405b", tp=8, pp=9, dp=14, micro=1,
                      global_batch=1008, recompute="full", training={"tokens": 4e11, "checkpoint_interval_min": 60})]},
        {"id": "product", "name": "Product models", "color": "#f28e2b", "priority": 6,
         "sla": {"max_penalty_pct": 5, "deadline_days": 10},
         "jobs": [job("l70-ft", "Llama 3 70B instruction tuning", "full_finetune", "llama3-70b", tp=8, pp=2, dp=16,
                      micro=1, global_batch=256, training={"tokens": 2e10, "checkpoint_interval_min": 60})]},
        {"id": "serving", "name": "Serving", "color": "#59a14f", "priority": 8, "sla": {"max_penalty_pct": 5},
         "jobs": [job("serve-70b", "Llama 3 70B serving", "inference", "llama3-70b", tp=8, dp=32, precision="fp8",
                      inference={"requests_per_s": 400, "context_tokens": 8192, "output_tokens": 512, "concurrency": 64})]},
    ]
    return scenario("250-node H100 cluster (2,000 GPUs)",
                    "250 DGX H100 nodes on 63 NDR leaves and 32 spines, shared by a 405B pre-training run, "
                    "instruction tuning and a large serving fleet.", groups, nodes, switches, links, tenants,
                    "aws-on-demand-2024")


SAMPLES = {
    "01-dgx-h100-three-tenants.json": dgx_three_tenants,
    "02-mixed-sharing-lab.json": mixed_sharing_lab,
    "03-fabric-64-node-infiniband.json": fabric_64,
    "04-cluster-250-node-h100.json": cluster_250,
}

if __name__ == "__main__":
    os.makedirs(OUT, exist_ok=True)
    for name, make in SAMPLES.items():
        with open(os.path.join(OUT, name), "w") as f:
            json.dump(make(), f, indent=2)
            f.write("\n")
        print("wrote", name)
