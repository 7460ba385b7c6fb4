#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: 2026 The gpuplan developers
"""Writes the held-out context-parallel and uneven-stage runs (issue 37) that
tests/tst_contextvalidation.cpp predicts, into cp/: rows of heldout/training.json with a GPU and a
model gpuplan has, on DGX H100 nodes under the same non-blocking fabric as make_scenarios.py,
with no assumption overridden. Run it from this folder; docs/validation.md lists the rows."""

import json
import math
import os

from make_scenarios import topology

HERE = os.path.dirname(os.path.abspath(__file__))

LLAMA2_7B = {"layers": 32, "hidden_size": 4096, "attention_heads": 32, "kv_heads": 32, "ffn_hidden_size": 11008,
             "vocab_size": 32000, "experts": 1, "active_experts": 1, "gated_ffn": True}

# file, heldout row id, model, tp, pp, dp, cp, vp, stage_layers, global batch, precision
RUNS = [
    ("nemo2407-llama3-8b-cp2", "train-nemo-24.07-perf-summary-303", {"preset": "llama3-8b"},
     1, 1, 4, 2, 1, None, 128, "fp8"),
    ("nemo2407-llama3-70b-cp2", "train-nemo-24.07-perf-summary-304", {"preset": "llama3-70b"},
     4, 4, 2, 2, 5, None, 128, "fp8"),
    # Megatron-Bridge runs 405B at VP 8 with the embedding and loss counted as layers; gpuplan
    # keeps uneven stages to plain 1F1B, so this is the same split without interleaving.
    ("bridge-llama31-405b-cp2-stages", "train-megatron-bridge-perf-summary-038",
     {"preset": "llama3.1-405b-8k"}, 8, 8, 8, 2, 1, [15, 16, 16, 16, 16, 16, 16, 15], 1536, "fp8"),
    ("nemo-longseq-llama2-7b-32k-cp2", "train-nemo-long-sequence-573", dict(LLAMA2_7B, sequence_length=32768),
     2, 1, 8, 2, 1, None, 128, "fp8"),
    ("nemo-longseq-llama2-7b-131k-cp4", "train-nemo-long-sequence-575", dict(LLAMA2_7B, sequence_length=131072),
     4, 1, 8, 4, 1, None, 32, "fp8"),
    ("nemo-longseq-llama2-7b-262k-cp8", "train-nemo-long-sequence-576", dict(LLAMA2_7B, sequence_length=262144),
     4, 1, 8, 8, 1, None, 16, "fp8"),
]


def main():
    with open(os.path.join(HERE, "..", "..", "..", "data", "models", "llama3.1-405b.json"), encoding="utf-8") as f:
        arch405 = dict(json.load(f)["models"][0]["architecture"], sequence_length=8192)
    for name, row, model, tp, pp, dp, cp, vp, stages, glob, precision in RUNS:
        if model.get("preset") == "llama3.1-405b-8k":
            model = dict(arch405)
        par = {"tp": tp, "pp": pp, "dp": dp, "zero_stage": 1, "fsdp": False, "sequence_parallel": tp > 1,
               "recompute": "none", "cp": cp}
        if vp > 1:
            par["virtual_stages"] = vp
        if stages:
            par["stage_layers"] = stages
        job = {"id": "run", "name": name, "kind": "pretraining", "model": model, "precision": precision,
               "optimizer": "adamw", "parallelism": par, "batch": {"micro": 1, "global": glob},
               "training": {"tokens": 300e9, "checkpoint_interval_min": 60},
               "schedule": {"arrival_h": 0, "duration_h": 0}, "main_grads_fp32": True}
        gpus = tp * pp * dp * cp
        doc = {"format_version": 2, "name": name, "description": "heldout/training.json " + row,
               "placement_policy": "topology_aware", "pricing": {"preset": "aws-on-demand-2024", "gpu_hour_usd": {}},
               "assumptions": {}, "topology": topology("dgx-h100", math.ceil(gpus / 8)),
               "tenants": [{"id": "lab", "name": "Lab", "color": "#4e79a7", "priority": 0,
                            "sla": {"max_penalty_pct": 100}, "jobs": [job]}]}
        with open(os.path.join(HERE, "cp", name + ".json"), "w", encoding="utf-8") as f:
            json.dump(doc, f, indent=1)
            f.write("\n")


if __name__ == "__main__":
    main()
