#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: 2026 The gpuplan developers
"""Writes cluster.json: a v1 List of Nodes, Pods, a ResourceSlice and a ResourceClaim in the shape
`kubectl get nodes,pods,resourceslices,resourceclaims -A -o json` prints, assembled from published
label sets and resource listings (README.md in this folder names each source). Run it again after
changing it; the tests read the JSON it writes."""
import json
import pathlib
import zlib

HERE = pathlib.Path(__file__).resolve().parent

# GFD's example label block for a DGX A100 node (NVIDIA/k8s-device-plugin
# docs/gpu-feature-discovery/README.md, "Verifying Everything Works").
GFD_A100 = {
    "nvidia.com/cuda.driver.major": "455",
    "nvidia.com/cuda.driver.minor": "06",
    "nvidia.com/cuda.driver.rev": "",
    "nvidia.com/cuda.runtime.major": "11",
    "nvidia.com/cuda.runtime.minor": "1",
    "nvidia.com/gpu.compute.major": "8",
    "nvidia.com/gpu.compute.minor": "0",
    "nvidia.com/gfd.timestamp": "1594644571",
    "nvidia.com/gpu.count": "1",
    "nvidia.com/gpu.family": "ampere",
    "nvidia.com/gpu.machine": "NVIDIA DGX-2H",
    "nvidia.com/gpu.memory": "39538",
    "nvidia.com/gpu.product": "A100-SXM4-40GB",
}

# The GPU Operator's MIG 'mixed' walk-through (NVIDIA/gpu-operator docs, gpu-operator-mig.rst,
# "The mixed strategy"): the labels `kubectl get node -o json | jq ...` printed after
# `nvidia-smi mig -cgi 9,14,19 -C`, and the Allocatable block `kubectl describe node` printed.
MIG_MIXED_LABELS = {
    "nvidia.com/cuda.driver.major": "450",
    "nvidia.com/cuda.driver.minor": "80",
    "nvidia.com/cuda.driver.rev": "02",
    "nvidia.com/cuda.runtime.major": "11",
    "nvidia.com/cuda.runtime.minor": "0",
    "nvidia.com/gfd.timestamp": "1605658841",
    "nvidia.com/gpu.compute.major": "8",
    "nvidia.com/gpu.compute.minor": "0",
    "nvidia.com/gpu.count": "1",
    "nvidia.com/gpu.family": "ampere",
    "nvidia.com/gpu.machine": "NVIDIA DGX",
    "nvidia.com/gpu.memory": "40537",
    "nvidia.com/gpu.product": "A100-SXM4-40GB",
    "nvidia.com/mig-1g.5gb.count": "1",
    "nvidia.com/mig-1g.5gb.memory": "4864",
    "nvidia.com/mig-1g.5gb.multiprocessors": "14",
    "nvidia.com/mig-1g.5gb.slices.ci": "1",
    "nvidia.com/mig-1g.5gb.slices.gi": "1",
    "nvidia.com/mig-2g.10gb.count": "1",
    "nvidia.com/mig-2g.10gb.memory": "9984",
    "nvidia.com/mig-2g.10gb.multiprocessors": "28",
    "nvidia.com/mig-2g.10gb.slices.ci": "2",
    "nvidia.com/mig-2g.10gb.slices.gi": "2",
    "nvidia.com/mig-3g.21gb.count": "1",
    "nvidia.com/mig-3g.21gb.memory": "20096",
    "nvidia.com/mig-3g.21gb.multiprocessors": "42",
    "nvidia.com/mig-3g.21gb.slices.ci": "3",
    "nvidia.com/mig-3g.21gb.slices.gi": "3",
    "nvidia.com/mig.strategy": "mixed",
}
MIG_MIXED_ALLOCATABLE = {"nvidia.com/mig-1g.5gb": "1", "nvidia.com/mig-2g.10gb": "1", "nvidia.com/mig-3g.20gb": "1"}

# Time-slicing and MPS as the device plugin labels them (NVIDIA/k8s-device-plugin
# internal/lm/mig-strategy_test.go: gpu.count, gpu.replicas, gpu.sharing-strategy and the
# "-SHARED" product suffix; README.md "Shared Access to GPUs": 8 GPUs x 10 replicas advertise
# 80 nvidia.com/gpu, or nvidia.com/gpu.shared with renameByDefault). The product string is the
# one GFD writes for an H100 SXM ("NVIDIA H100 80GB HBM3" as nvidia-smi prints it).
TIME_SLICED = {
    "nvidia.com/gpu.count": "8",
    "nvidia.com/gpu.replicas": "10",
    "nvidia.com/gpu.sharing-strategy": "time-slicing",
    "nvidia.com/gpu.memory": "81559",
    "nvidia.com/gpu.product": "NVIDIA-H100-80GB-HBM3-SHARED",
    "nvidia.com/gpu.family": "hopper",
}
MPS = {
    "nvidia.com/gpu.count": "2",
    "nvidia.com/gpu.replicas": "4",
    "nvidia.com/gpu.sharing-strategy": "mps",
    "nvidia.com/mps.capable": "true",
    "nvidia.com/gpu.memory": "81559",
    "nvidia.com/gpu.product": "NVIDIA-H100-80GB-HBM3",
    "nvidia.com/gpu.family": "hopper",
}


def node(name, labels, allocatable):
    labels = dict(labels)
    labels["kubernetes.io/hostname"] = name
    labels["kubernetes.io/os"] = "linux"
    return {
        "apiVersion": "v1",
        "kind": "Node",
        "metadata": {"labels": labels, "name": name, "resourceVersion": "1"},
        "spec": {},
        "status": {
            "allocatable": dict({"cpu": "64", "memory": "1056745280Ki", "pods": "110"}, **allocatable),
            "capacity": dict({"cpu": "64", "memory": "1056847680Ki", "pods": "110"}, **allocatable),
        },
    }


def pod(name, ns, node_name, resources, owner=None, labels=None, phase="Running", claims=None):
    meta = {"name": name, "namespace": ns, "labels": dict(labels or {})}
    if owner:
        kind, oname = owner
        meta["ownerReferences"] = [
            {"apiVersion": "kubeflow.org/v1" if kind == "PyTorchJob" else "batch/v1" if kind == "Job" else "apps/v1",
             "kind": kind, "name": oname, "controller": True, "blockOwnerDeletion": True,
             "uid": "00000000-0000-0000-0000-%012d" % zlib.crc32(oname.encode())}
        ]
    spec = {
        "containers": [{"name": "main", "image": "nvidia/cuda:12.4.1-base-ubuntu22.04",
                        "resources": {"limits": resources, "requests": resources}}],
        "restartPolicy": "Always",
    }
    if node_name:
        spec["nodeName"] = node_name
    status = {"phase": phase}
    if claims:
        spec["resourceClaims"] = [{"name": c, "resourceClaimTemplateName": "single-gpu"} for c in claims]
        status["resourceClaimStatuses"] = [{"name": c, "resourceClaimName": name + "-" + c + "-x7k2p"} for c in claims]
        spec["containers"][0]["resources"] = {"claims": [{"name": c} for c in claims]}
    return {"apiVersion": "v1", "kind": "Pod", "metadata": meta, "spec": spec, "status": status}


# A DRA node as the NVIDIA DRA driver publishes it (NVIDIA/k8s-dra-driver-gpu
# cmd/gpu-kubelet-plugin/deviceinfo.go: device names gpu-<index>, attributes type, uuid,
# productName, brand, architecture, cudaComputeCapability, driverVersion; resource.k8s.io/v1).
def gpu_device(i):
    return {
        "name": "gpu-%d" % i,
        "attributes": {
            "type": {"string": "gpu"},
            "uuid": {"string": "GPU-5b7f1c2e-%04d-4c1e-9d55-0c1f2a3b4c5d" % i},
            "productName": {"string": "NVIDIA H100 80GB HBM3"},
            "brand": {"string": "Nvidia"},
            "architecture": {"string": "Hopper"},
            "cudaComputeCapability": {"version": "9.0.0"},
            "driverVersion": {"version": "570.133.20"},
            "index": {"int": i},
        },
        "capacity": {"memory": {"value": "80Gi"}},
    }


items = [
    node("dgx-a100-01", GFD_A100, {"nvidia.com/gpu": "1"}),
    node("a100-mig-01", MIG_MIXED_LABELS, MIG_MIXED_ALLOCATABLE),
    node("h100-ts-01", TIME_SLICED, {"nvidia.com/gpu": "80"}),
    node("h100-mps-01", MPS, {"nvidia.com/gpu": "8"}),
    node("h100-dra-01", {}, {}),
    node("cpu-01", {}, {}),
    # Pods: a Deployment's ReplicaSet (name-<pod-template-hash>), a PyTorchJob's workers, a
    # StatefulSet notebook, a LeaderWorkerSet's leader and worker, the GPU Operator's MIG example
    # pod (`kubectl run --limits=nvidia.com/mig-1g.5gb=1 mig-mixed-example`), a DRA pod, a finished
    # pod and a CPU-only pod (both left out).
    pod("vllm-llama-5d8f7c9b4-x2k9p", "chat", "a100-mig-01", {"nvidia.com/mig-3g.20gb": "1"},
        ("ReplicaSet", "vllm-llama-5d8f7c9b4"), {"app": "vllm-llama", "pod-template-hash": "5d8f7c9b4",
                                                   "team": "product"}),
    pod("embedder-7c6d9f8b5-q4r7s", "chat", "a100-mig-01", {"nvidia.com/mig-2g.10gb": "1"},
        ("ReplicaSet", "embedder-7c6d9f8b5"), {"app": "embedder", "pod-template-hash": "7c6d9f8b5",
                                                 "team": "search"}),
    pod("mig-mixed-example", "default", "a100-mig-01", {"nvidia.com/mig-1g.5gb": "1"}),
    pod("bert-finetune-master-0", "research", "h100-ts-01", {"nvidia.com/gpu": "4"},
        ("PyTorchJob", "bert-finetune"), {"training.kubeflow.org/job-name": "bert-finetune", "team": "nlp"}),
    pod("bert-finetune-worker-0", "research", "h100-ts-01", {"nvidia.com/gpu": "4"},
        ("PyTorchJob", "bert-finetune"), {"training.kubeflow.org/job-name": "bert-finetune", "team": "nlp"}),
    pod("notebook-0", "research", "dgx-a100-01", {"nvidia.com/gpu": "1"}, ("StatefulSet", "notebook"),
        {"team": "nlp"}),
    pod("llama-70b-0", "chat", "h100-mps-01", {"nvidia.com/gpu": "2"}, ("StatefulSet", "llama-70b-0"),
        {"leaderworkerset.sigs.k8s.io/name": "llama-70b", "team": "product"}),
    pod("llama-70b-0-1", "chat", "h100-mps-01", {"nvidia.com/gpu": "2"}, ("StatefulSet", "llama-70b-0"),
        {"leaderworkerset.sigs.k8s.io/name": "llama-70b", "team": "product"}),
    pod("dra-trainer", "research", "h100-dra-01", {}, labels={"team": "nlp"}, claims=["gpu"]),
    pod("old-eval-2xk8d", "research", "dgx-a100-01", {"nvidia.com/gpu": "1"}, ("Job", "old-eval"), phase="Succeeded"),
    pod("web-6b9c7d5f4-zz9k2", "chat", "cpu-01", {"cpu": "2"}, ("ReplicaSet", "web-6b9c7d5f4"),
        {"pod-template-hash": "6b9c7d5f4"}),
    {
        "apiVersion": "resource.k8s.io/v1",
        "kind": "ResourceSlice",
        "metadata": {"name": "h100-dra-01-gpu.nvidia.com-8sx4p"},
        "spec": {"driver": "gpu.nvidia.com", "nodeName": "h100-dra-01",
                 "pool": {"name": "h100-dra-01", "generation": 1, "resourceSliceCount": 1},
                 "devices": [gpu_device(i) for i in range(4)]},
    },
    {
        "apiVersion": "resource.k8s.io/v1",
        "kind": "ResourceClaim",
        "metadata": {"name": "dra-trainer-gpu-x7k2p", "namespace": "research"},
        "spec": {"devices": {"requests": [{"name": "gpu", "exactly": {"deviceClassName": "gpu.nvidia.com",
                                                                       "count": 2, "allocationMode": "ExactCount"}}]}},
        "status": {"allocation": {"devices": {"results": [
            {"request": "gpu", "driver": "gpu.nvidia.com", "pool": "h100-dra-01", "device": "gpu-0"},
            {"request": "gpu", "driver": "gpu.nvidia.com", "pool": "h100-dra-01", "device": "gpu-1"}]}}},
    },
]

doc = {"apiVersion": "v1", "items": items, "kind": "List", "metadata": {"resourceVersion": ""}}
(HERE / "cluster.json").write_text(json.dumps(doc, indent=4) + "\n")
