#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: 2026 The gpuplan developers
"""Validates a gpuplan cluster export (export-config --format dra/hami/kai/all) against the published
schemas in this folder (README.md): every DRA object by its apiVersion and kind, the NVIDIA DRA
driver's opaque configurations by their kind, the pods' resourceClaims (dra/placement.yaml), the
HAMi containers' resources, and KAI Scheduler's Queues (its CRD) and pod templates (core/v1
PodTemplateSpec, and the rules KAI's binder applies to the queue label, scheduler name and GPU
sharing annotations). Prints one line per problem, FILE: document N: PATH: message, and exits 1
when there is any.

    python3 validate_export.py EXPORT_DIR
"""
import json
import pathlib
import re
import sys

import jsonschema
import yaml

HERE = pathlib.Path(__file__).resolve().parent
K8S = json.loads((HERE / "resource.k8s.io-v1.json").read_text())
NVIDIA = json.loads((HERE / "resource.nvidia.com-v1beta1-configs.json").read_text())


def closed(schema):
    """A CRD's structural schema as the API server's strict field validation applies it: an object
    with properties takes no other field."""
    if isinstance(schema, dict):
        out = {k: closed(v) for k, v in schema.items() if not k.startswith("x-kubernetes")}
        if out.get("type") == "object" and "properties" in out and "additionalProperties" not in out:
            out["additionalProperties"] = False
        return out
    if isinstance(schema, list):
        return [closed(v) for v in schema]
    return schema


CRD = yaml.safe_load((HERE / "resource.nvidia.com_computedomains.yaml").read_text())
COMPUTE_DOMAIN = closed(next(v for v in CRD["spec"]["versions"] if v["name"] == "v1beta1")["schema"]["openAPIV3Schema"])


def validator(root, name):
    return jsonschema.Draft7Validator({"$ref": "#/definitions/" + name, "definitions": root["definitions"]})


OBJECTS = {
    ("resource.k8s.io/v1", "ResourceClaimTemplate"): validator(K8S, "io.k8s.api.resource.v1.ResourceClaimTemplate"),
    ("resource.k8s.io/v1", "ResourceClaim"): validator(K8S, "io.k8s.api.resource.v1.ResourceClaim"),
    ("resource.k8s.io/v1", "DeviceClass"): validator(K8S, "io.k8s.api.resource.v1.DeviceClass"),
    ("resource.nvidia.com/v1beta1", "ComputeDomain"): jsonschema.Draft7Validator(COMPUTE_DOMAIN),
}
QUEUE_CRD = yaml.safe_load((HERE / "scheduling.run.ai_queues.yaml").read_text())
QUEUE = closed(next(v for v in QUEUE_CRD["spec"]["versions"] if v["name"] == "v2")["schema"]["openAPIV3Schema"])
OBJECTS[("scheduling.run.ai/v2", "Queue")] = jsonschema.Draft7Validator(QUEUE)
OBJECT_META = validator(K8S, "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta")
CORE = json.loads((HERE / "core-v1-podtemplatespec.json").read_text())
POD_TEMPLATE = validator(CORE, "io.k8s.api.core.v1.PodTemplateSpec")
CONFIGS = {k: validator(NVIDIA, k) for k in ("GpuConfig", "MigDeviceConfig")}

# What KAI Scheduler reads (NVIDIA/KAI-Scheduler, README.md of this folder): the queue label and
# scheduler name (pkg/common/constants/constants.go), the GPU-sharing annotations and the binder's
# rules for them (pkg/binder/plugins/gpusharing/gpu-request/gpu_request_validator.go), and the device
# plugin's resource names as a Kubernetes qualified name allows them.
KAI_QUEUE_LABEL = "kai.scheduler/queue"
KAI_SCHEDULER = "kai-scheduler"
KAI_ANNOTATIONS = {"gpu-fraction", "gpu-memory", "gpu-fraction-num-devices", "gpu-fraction-container-name"}
RESOURCE_NAME = re.compile(r"^nvidia\.com/(gpu|mig-[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?)$")


def kai_rules(template):
    """KAI's rules for one pod template, as messages (empty when it keeps them)."""
    out = []
    meta = template.get("metadata") or {}
    spec = template.get("spec") or {}
    labels = meta.get("labels") or {}
    ann = meta.get("annotations") or {}
    if KAI_QUEUE_LABEL not in labels:
        out.append(f"metadata.labels: no {KAI_QUEUE_LABEL} label")
    if spec.get("schedulerName") != KAI_SCHEDULER:
        out.append(f"spec.schedulerName: {spec.get('schedulerName')!r} is not {KAI_SCHEDULER!r}")
    for k in ann:
        if k not in KAI_ANNOTATIONS:
            out.append(f"metadata.annotations.{k}: not an annotation KAI reads")
    limits = {}
    for i, c in enumerate(spec.get("containers") or []):
        for k, v in ((c.get("resources") or {}).get("limits") or {}).items():
            limits[k] = v
            if not RESOURCE_NAME.match(k):
                out.append(f"spec.containers.{i}.resources.limits.{k}: not a GPU resource name the device plugin "
                           "registers")
    fraction, memory, devices = ann.get("gpu-fraction"), ann.get("gpu-memory"), ann.get("gpu-fraction-num-devices")
    if fraction is not None:
        try:
            ok = 0 < float(fraction) < 1
        except ValueError:
            ok = False
        if not ok:
            out.append(f"metadata.annotations.gpu-fraction: {fraction!r} is not a number between 0 and 1")
        if "nvidia.com/gpu" in limits:
            out.append("metadata.annotations.gpu-fraction: beside an nvidia.com/gpu limit")
    if memory is not None:
        if not re.fullmatch(r"[0-9]+", str(memory)) or int(memory) == 0:
            out.append(f"metadata.annotations.gpu-memory: {memory!r} is not a positive integer (MiB)")
        if fraction is not None or "nvidia.com/gpu" in limits:
            out.append("metadata.annotations.gpu-memory: beside gpu-fraction or an nvidia.com/gpu limit")
    if devices is not None:
        if not re.fullmatch(r"[0-9]+", str(devices)) or int(devices) == 0:
            out.append(f"metadata.annotations.gpu-fraction-num-devices: {devices!r} is not a positive integer")
        if fraction is None and memory is None:
            out.append("metadata.annotations.gpu-fraction-num-devices: without gpu-fraction or gpu-memory")
    return out
POD_CLAIM = validator(K8S, "io.k8s.api.core.v1.PodResourceClaim")
RESOURCES = validator(K8S, "io.k8s.api.core.v1.ResourceRequirements")
STRING_MAP = jsonschema.Draft7Validator({"type": "object", "additionalProperties": {"type": "string"}})


def report(problems, where, v, value):
    for e in sorted(v.iter_errors(value), key=lambda e: list(e.absolute_path)):
        path = ".".join(str(p) for p in e.absolute_path) or "(document)"
        problems.append(f"{where}: {path}: {e.message}")


def opaque_configs(obj):
    spec = obj.get("spec", {})
    if obj.get("kind") == "ResourceClaimTemplate":
        spec = spec.get("spec", {})
    for i, c in enumerate((spec.get("devices") or {}).get("config") or []):
        o = c.get("opaque") if isinstance(c, dict) else None
        if isinstance(o, dict) and o.get("driver") == "gpu.nvidia.com":
            yield f"spec.devices.config.{i}.opaque.parameters", o.get("parameters")


def check(root):
    problems = []
    for f in sorted((root / "dra").rglob("*.yaml")):
        rel = f.relative_to(root)
        docs = list(yaml.safe_load_all(f.read_text()))
        if rel.name == "placement.yaml":
            for i, pod in enumerate(docs[0]["pods"]):
                STRING_MAP.validate(pod["nodeSelector"])
                for j, claim in enumerate(pod["resourceClaims"]):
                    report(problems, f"{rel}: pods.{i}.resourceClaims.{j}", POD_CLAIM, claim)
            continue
        for n, obj in enumerate(d for d in docs if d is not None):
            where = f"{rel}: document {n + 1}"
            key = (obj.get("apiVersion"), obj.get("kind"))
            if key not in OBJECTS:
                problems.append(f"{where}: apiVersion/kind: {key[0]}/{key[1]} is not a kind this check knows")
                continue
            report(problems, where, OBJECTS[key], obj)
            for path, params in opaque_configs(obj):
                kind = params.get("kind") if isinstance(params, dict) else None
                if kind not in CONFIGS:
                    problems.append(f"{where}: {path}.kind: {kind!r} is not a configuration of the NVIDIA DRA driver")
                else:
                    report(problems, f"{where}: {path}", CONFIGS[kind], params)
    for f in sorted((root / "hami").rglob("*.yaml")):
        rel = f.relative_to(root)
        doc = yaml.safe_load(f.read_text())
        for i, pod in enumerate(doc["pods"]):
            report(problems, f"{rel}: pods.{i}.annotations", STRING_MAP, pod["annotations"])
            for j, c in enumerate(pod["containers"]):
                report(problems, f"{rel}: pods.{i}.containers.{j}.resources", RESOURCES, c["resources"])
    kai = root / "kai"
    queues = {}
    if (kai / "queues.yaml").exists():
        rel = (kai / "queues.yaml").relative_to(root)
        docs = [d for d in yaml.safe_load_all((kai / "queues.yaml").read_text()) if d is not None]
        for n, obj in enumerate(docs):
            where = f"{rel}: document {n + 1}"
            if (obj.get("apiVersion"), obj.get("kind")) != ("scheduling.run.ai/v2", "Queue"):
                problems.append(f"{where}: apiVersion/kind: {obj.get('apiVersion')}/{obj.get('kind')} is not a Queue")
                continue
            report(problems, where, OBJECTS[("scheduling.run.ai/v2", "Queue")], obj)
            report(problems, f"{where}: metadata", OBJECT_META, obj.get("metadata"))
            queues[obj["metadata"]["name"]] = obj
        for name, q in queues.items():
            parent = (q.get("spec") or {}).get("parentQueue")
            if parent is not None and parent not in queues:
                problems.append(f"{rel}: queue {name}: spec.parentQueue: no queue {parent!r}")
    parents = {(q.get("spec") or {}).get("parentQueue") for q in queues.values()}
    for f in sorted((kai / "tenants").rglob("*.yaml")) if (kai / "tenants").exists() else []:
        rel = f.relative_to(root)
        doc = yaml.safe_load(f.read_text())
        for i, pod in enumerate(doc["pods"]):
            template = pod.get("template")
            report(problems, f"{rel}: pods.{i}.template", POD_TEMPLATE, template)
            for m in kai_rules(template or {}):
                problems.append(f"{rel}: pods.{i}.template.{m}")
            queue = ((template or {}).get("metadata") or {}).get("labels", {}).get(KAI_QUEUE_LABEL)
            if queue is not None and (queue not in queues or queue in parents):
                problems.append(f"{rel}: pods.{i}.template.metadata.labels.{KAI_QUEUE_LABEL}: {queue!r} is not a "
                                "leaf queue of kai/queues.yaml")
    return problems


if __name__ == "__main__":
    found = check(pathlib.Path(sys.argv[1]))
    for p in found:
        print(p)
    sys.exit(1 if found else 0)
