#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: 2026 The gpuplan developers
"""Writes the published training runs that tests/tst_stepvalidation.cpp predicts, one
scenario per run: DGX nodes under a non-blocking leaf/spine InfiniBand fabric, one
pre-training job with the run's model, parallelism and batch, and no assumption overridden.
Run it from this folder after changing a row; docs/validation.md cites every source."""

import json
import math
import os

HERE = os.path.dirname(os.path.abspath(__file__))

SYSTEMS = {
    # node template, GPU, NICs per node and Gb/s each, leaf switch template
    "dgx-a100": ("dgx-a100-640gb", "a100-80gb", 8, 200, "qm8700"),
    "dgx-h100": ("dgx-h100", "h100-80gb", 8, 400, "qm9700"),
    "dgx-h200": ("dgx-h200", "h200-141gb", 8, 400, "qm9700"),
}


def topology(system, nodes_needed):
    template, gpu, nics, speed, switch = SYSTEMS[system]
    per_leaf = 16
    leaves = max(1, math.ceil(nodes_needed / per_leaf))
    spines = 0 if leaves == 1 else 2
    t = {"groups": [], "nodes": [], "switches": [], "links": []}
    for l in range(leaves):
        t["switches"].append({"id": f"leaf-{l:02d}", "name": f"leaf-{l:02d}", "template": switch, "tier": "leaf",
                              "ports": 2 * per_leaf * nics, "port_speed_gbps": speed, "group": "",
                              "position": {"x": 200 * l, "y": 300}})
    for s in range(spines):
        t["switches"].append({"id": f"spine-{s:02d}", "name": f"spine-{s:02d}", "template": switch, "tier": "spine",
                              "ports": leaves * per_leaf * nics, "port_speed_gbps": speed, "group": "",
                              "position": {"x": 400 * s, "y": 0}})
    for n in range(nodes_needed):
        leaf = n // per_leaf
        nid = f"node-{n:03d}"
        t["nodes"].append({"id": nid, "name": nid, "template": template, "gpu": gpu, "gpu_count": 8, "group": "",
                           "nics": {"count": nics, "speed_gbps": speed, "gpudirect_rdma": True},
                           "position": {"x": 60 * n, "y": 600}, "sharing": {"mode": "exclusive"}})
        t["links"].append({"id": f"{nid}-leaf", "from": nid, "to": f"leaf-{leaf:02d}",
                           "bandwidth_gbps": nics * speed, "latency_us": 1})
    # Non-blocking: each leaf's uplinks carry what its nodes can send.
    for l in range(leaves):
        for s in range(spines):
            t["links"].append({"id": f"leaf-{l:02d}-spine-{s:02d}", "from": f"leaf-{l:02d}", "to": f"spine-{s:02d}",
                               "bandwidth_gbps": per_leaf * nics * speed / spines, "latency_us": 1})
    return t


def scenario(name, source, system, model, par, batch, precision="fp16", main_grads=True, flash=False):
    gpus = par["tp"] * par["pp"] * par["dp"]
    job = {"id": "run", "name": name, "kind": "pretraining", "model": model, "precision": precision,
           "optimizer": "adamw", "parallelism": par, "batch": batch,
           "training": {"tokens": 300e9, "checkpoint_interval_min": 60},
           "schedule": {"arrival_h": 0, "duration_h": 0}}
    if main_grads:
        job["main_grads_fp32"] = True
    if flash:
        job["flash_attention"] = True
    return {"format_version": 1, "name": name, "description": source, "placement_policy": "topology_aware",
            "pricing": {"preset": "aws-on-demand-2024", "gpu_hour_usd": {}}, "assumptions": {},
            "topology": topology(system, math.ceil(gpus / 8)),
            "tenants": [{"id": "lab", "name": "Lab", "color": "#4e79a7", "priority": 0,
                         "sla": {"max_penalty_pct": 100}, "jobs": [job]}]}


def gpt(layers, hidden, heads, vocab=51200, seq=2048):
    # Megatron GPT: 4h GeLU FFN, dropout, the padded GPT-2 vocabulary of 51,200.
    return {"layers": layers, "hidden_size": hidden, "attention_heads": heads, "kv_heads": heads,
            "ffn_hidden_size": 4 * hidden, "vocab_size": vocab, "sequence_length": seq,
            "gated_ffn": False, "dropout": True}


KORTHIKANTI = "Korthikanti et al. 2022, 'Reducing Activation Recomputation in Large Transformer Models', Tables 3 and 5"
# model, (layers, hidden, heads), tp, pp, v, micro, global
KORTHIKANTI_RUNS = [
    ("22b", (48, 6144, 64), 8, 1, 1, 4, 4),
    ("175b", (96, 12288, 96), 8, 8, 3, 1, 64),
    ("530b", (105, 20480, 128), 8, 35, 3, 1, 280),
    ("1t", (128, 25600, 160), 8, 64, 1, 1, 512),
]

NARAYANAN = "Narayanan et al. 2021, 'Efficient Large-Scale Language Model Training on GPU Clusters Using Megatron-LM', Table 1"
# params, (layers, hidden, heads), tp, pp, gpus, global batch; micro-batch 1, full recomputation
NARAYANAN_RUNS = [
    ("145b", (80, 12288, 96), 8, 8, 1536, 2304),
    ("310b", (96, 16384, 128), 8, 16, 1920, 2160),
    ("530b", (105, 20480, 128), 8, 35, 2520, 2520),
    ("1t", (128, 25600, 160), 8, 64, 3072, 3072),
]


NEMO = ("NVIDIA NeMo Megatron-Bridge performance summary, DGX-H100 pre-training (docs/performance-summary.md and "
        "performance-summary-archive.md, containers 25.09, 25.11, 26.02)")
# model preset, precision, GPUs, global batch, micro, TP, PP, VP, FSDP
NEMO_RUNS = [
    ("llama3-70b", "fp8", 64, 128, 1, 4, 8, 5, False),
    ("llama3-70b", "fp8", 64, 256, 1, 4, 8, 5, False),
    ("llama3-8b", "fp8", 8, 128, 1, 1, 1, 1, True),
]


NIM = ("NVIDIA NIM for LLMs benchmarking guide, performance tables (docs.nvidia.com/nim/benchmarking/llm): "
       "Llama-3.3-70b-instruct NIM 1.8.0 on 2 x H100 80GB, FP8, TP2, 5000 input / 500 output tokens, "
       "AIPerf at fixed concurrency")
TRTLLM = ("NVIDIA TensorRT-LLM performance overview (docs/source/performance/perf-overview.md, v1.0): "
          "trtllm-bench throughput, all requests queued at once, FP8 checkpoints")
# TensorRT-LLM's engine as both sources ran it: no chunked prefill (LlmArgs.enable_chunked_prefill
# defaults to False) and trtllm-bench's token budget of 8,192 per iteration.
TRTLLM_ENGINE = {"chunked_prefill": 0, "inference_prefill_chunk_tokens": 8192}
# file, source, system, preset, tp, input, output, concurrency
SERVING_RUNS = [
    ("nim-llama3.3-70b-fp8-tp2-h100", NIM, "dgx-h100", "llama3.3-70b", 2, 5000, 500, 1),
    ("trtllm-llama3.1-8b-fp8-tp1-h100", TRTLLM, "dgx-h100", "llama3.1-8b", 1, 1000, 1000, 3000),
    ("trtllm-llama3.3-70b-fp8-tp2-h100", TRTLLM, "dgx-h100", "llama3.3-70b", 2, 1000, 1000, 3000),
    ("trtllm-llama3.3-70b-fp8-tp1-h200", TRTLLM, "dgx-h200", "llama3.3-70b", 1, 1000, 1000, 3000),
    ("trtllm-llama3.1-405b-fp8-tp8-h100", TRTLLM, "dgx-h100", "llama3.1-405b", 8, 1000, 1000, 3000),
]


def serving(name, source, system, preset, tp, isl, osl, concurrency):
    job = {"id": "serve", "name": name, "kind": "inference", "model": {"preset": preset}, "precision": "fp8",
           "parallelism": {"tp": tp, "pp": 1, "dp": 1},
           "inference": {"load": "closed", "input_tokens": isl, "output_tokens": osl, "context_tokens": isl + osl,
                         "concurrency": concurrency},
           "schedule": {"arrival_h": 0, "duration_h": 0}}
    return {"format_version": 1, "name": name, "description": source, "placement_policy": "topology_aware",
            "pricing": {"preset": "aws-on-demand-2024", "gpu_hour_usd": {}}, "assumptions": dict(TRTLLM_ENGINE),
            "topology": topology(system, 1),
            "tenants": [{"id": "svc", "name": "Service", "color": "#4e79a7", "priority": 0,
                         "sla": {"max_penalty_pct": 100}, "jobs": [job]}]}


def main():
    out = {}
    for key, source, system, preset, tp, isl, osl, conc in SERVING_RUNS:
        out[key + ".json"] = serving(key, source, system, preset, tp, isl, osl, conc)
    for key, (l, h, a), tp, pp, v, micro, glob in KORTHIKANTI_RUNS:
        for mode in ("full", "selective"):
            par = {"tp": tp, "pp": pp, "dp": 1, "zero_stage": 0, "fsdp": False,
                   "sequence_parallel": mode == "selective", "recompute": mode}
            if v > 1:
                par["virtual_stages"] = v
            name = f"Korthikanti {key.upper()} {'full recomputation' if mode == 'full' else 'SP + selective'}"
            out[f"korthikanti-{key}-{mode}.json"] = scenario(name, KORTHIKANTI, "dgx-a100", gpt(l, h, a), par,
                                                             {"micro": micro, "global": glob})
    for key, (l, h, a), tp, pp, gpus, glob in NARAYANAN_RUNS:
        dp = gpus // (tp * pp)
        par = {"tp": tp, "pp": pp, "dp": dp, "zero_stage": 0, "fsdp": False, "sequence_parallel": False,
               "recompute": "full"}
        out[f"narayanan-{key}.json"] = scenario(f"Narayanan {key.upper()} on {gpus} GPUs", NARAYANAN, "dgx-a100",
                                                gpt(l, h, a), par, {"micro": 1, "global": glob})
    for preset, precision, gpus, glob, micro, tp, pp, vp, fsdp in NEMO_RUNS:
        dp = gpus // (tp * pp)
        par = {"tp": tp, "pp": pp, "dp": dp, "zero_stage": 3 if fsdp else 1, "fsdp": fsdp,
               "sequence_parallel": tp > 1, "recompute": "none"}
        if vp > 1:
            par["virtual_stages"] = vp
        name = f"nemo-{preset}-{precision}-gbs{glob}.json"
        out[name] = scenario(f"NeMo {preset} {precision.upper()} on {gpus} H100, GBS {glob}", NEMO, "dgx-h100",
                             {"preset": preset}, par, {"micro": micro, "global": glob}, precision=precision)
    for name, doc in out.items():
        with open(os.path.join(HERE, name), "w", encoding="utf-8") as f:
            json.dump(doc, f, indent=1)
            f.write("\n")


if __name__ == "__main__":
    main()
