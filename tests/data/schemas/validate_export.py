#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: 2026 The gpuplan developers
"""Validates a gpuplan cluster export (export-config --format dra/hami/all) against the published
schemas in this folder (README.md): every DRA object by its apiVersion and kind, the NVIDIA DRA
driver's opaque configurations by their kind, the pods' resourceClaims (dra/placement.yaml) and the
HAMi containers' resources. Prints one line per problem, FILE: document N: PATH: message, and
exits 1 when there is any.

    python3 validate_export.py EXPORT_DIR
"""
import json
import pathlib
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
CONFIGS = {k: validator(NVIDIA, k) for k in ("GpuConfig", "MigDeviceConfig")}
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
    return problems


if __name__ == "__main__":
    found = check(pathlib.Path(sys.argv[1]))
    for p in found:
        print(p)
    sys.exit(1 if found else 0)
