#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: 2026 The gpuplan developers
"""Turns the structured-merge-diff schema that Kubernetes generates from its OpenAPI into client-go
(k8s.io/client-go/applyconfigurations/internal/internal.go) into a JSON Schema of the types named
on the command line and everything they reach. Every object is closed (additionalProperties: false,
as the API server's strict field validation, `kubectl apply --validate=strict`), every scalar keeps
its type. See README.md for where internal.go came from.

    python3 smd2jsonschema.py internal.go ROOT_TYPE... > out.json
"""
import json
import re
import sys

import yaml


def load(path):
    text = open(path, encoding="utf-8").read()
    body = re.search(r"var schemaYAML = typed\.YAMLObject\(`(.*?)`\)", text, re.S).group(1)
    return {t["name"]: t for t in yaml.safe_load(body)["types"]}


SCALARS = {"string": {"type": "string"}, "boolean": {"type": "boolean"}, "numeric": {"type": "number"},
           "untyped": {}}


# What the structured-merge-diff schema leaves out and the OpenAPI v3 document of the same release
# states (api/openapi-spec/v3/apis__resource.k8s.io__v1_openapi.json): required fields, and
# int64/int32 fields as integers.
REQUIRED = {
    "io.k8s.api.resource.v1.CELDeviceSelector": ["expression"],
    "io.k8s.api.resource.v1.DeviceRequest": ["name"],
    "io.k8s.api.resource.v1.DeviceSubRequest": ["name", "deviceClassName"],
    "io.k8s.api.resource.v1.ExactDeviceRequest": ["deviceClassName"],
    "io.k8s.api.resource.v1.OpaqueDeviceConfiguration": ["driver", "parameters"],
    "io.k8s.api.resource.v1.ResourceClaim": ["spec"],
    "io.k8s.api.resource.v1.ResourceClaimTemplate": ["spec"],
    "io.k8s.api.resource.v1.ResourceClaimTemplateSpec": ["spec"],
    "io.k8s.api.resource.v1.DeviceClass": ["spec"],
    "io.k8s.api.core.v1.PodResourceClaim": ["name"],
    # core/v1, for the pod templates: fields without omitempty in k8s.io/api/core/v1/types.go (as
    # vendored in the same driver commit), which the OpenAPI document lists as required.
    "io.k8s.api.core.v1.PodSpec": ["containers"],
    "io.k8s.api.core.v1.Container": ["name"],
    "io.k8s.api.core.v1.Volume": ["name"],
    "io.k8s.api.core.v1.VolumeMount": ["name", "mountPath"],
    "io.k8s.api.core.v1.HostPathVolumeSource": ["path"],
}
INTEGERS = {("io.k8s.api.resource.v1.ExactDeviceRequest", "count"),
            ("io.k8s.api.resource.v1.DeviceSubRequest", "count")}


def convert(types, roots):
    defs = {}

    def ref(t):
        if "namedType" in t:
            name = t["namedType"]
            if name.startswith("__untyped"):
                return {}
            if name not in defs:
                defs[name] = None
                defs[name] = schema(types[name])
            return {"$ref": "#/definitions/" + name}
        return schema(t)

    def schema(t):
        if "scalar" in t and "map" not in t:
            return dict(SCALARS[t["scalar"]])
        if "list" in t:
            return {"type": "array", "items": ref(t["list"]["elementType"])}
        if "map" in t:
            m = t["map"]
            if "fields" in m:
                return {"type": "object", "additionalProperties": False,
                        "properties": {f["name"]: ref(f["type"]) for f in m["fields"]}}
            return {"type": "object", "additionalProperties": ref(m["elementType"])}
        if "namedType" in t:
            return ref(t)
        return {}

    for r in roots:
        ref({"namedType": r})
    for name, fields in REQUIRED.items():
        if defs.get(name):
            defs[name]["required"] = fields
    for name, field in INTEGERS:
        if defs.get(name):
            defs[name]["properties"][field] = {"type": "integer"}
    return {"$schema": "http://json-schema.org/draft-07/schema#", "definitions": defs}


if __name__ == "__main__":
    json.dump(convert(load(sys.argv[1]), sys.argv[2:]), sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")
