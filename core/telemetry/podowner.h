// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include <string>

namespace gp::telemetry {

/// The workload a Kubernetes pod belongs to, read from its name as the controllers write it:
/// a Deployment's pods are NAME-<pod-template-hash>-<5 random>, a Job's NAME-<5 random> (an
/// indexed Job's NAME-<index>-<5 random>), a StatefulSet's NAME-<ordinal>, a LeaderWorkerSet's
/// NAME-<group>-<index>. The random parts use Kubernetes' alphabet (k8s.io/apimachinery
/// util/rand: "bcdfghjklmnpqrstvwxz2456789", no vowels, so words are not taken for them).
/// "ollama-76f687f4cd-xcvvp" -> "ollama", "tensorflow-0" -> "tensorflow", "train-3-x7k2p" -> "train".
/// A name with none of these parts is its own owner.
std::string podOwnerName(const std::string& pod);

} // namespace gp::telemetry
