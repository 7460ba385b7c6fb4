// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include <map>
#include <string>

namespace gp {

/// A server model: how many GPUs of which kind, how they talk inside the box, and its NICs.
struct NodeTemplate
{
    std::string id; ///< e.g. "dgx-h100"
    std::string name;
    std::string gpuId;
    int gpuCount = 0;
    std::string scaleUpKind;   ///< "nvswitch", "nvlink-bridge", "infinity-fabric", "pcie"
    int scaleUpDomainGpus = 1; ///< GPUs that reach each other over the scale-up link
    int nicCount = 0;
    double nicSpeedGbps = 0.0; ///< gigabits per second per NIC
    bool gpudirectRdma = false;
    int pcieGen = 0;
    std::map<std::string, std::string> sources;
};

/// A rack-scale NVLink system (GB200 NVL72, GB300 NVL72): `trays` compute trays of one node
/// template behind `switchTrays` NVLink switch trays, all `domainGpus` GPUs one scale-up
/// domain. A scenario declares one as a topology group of kind "nvlink_domain" naming it.
struct RackTemplate
{
    std::string id; ///< e.g. "gb200-nvl72"
    std::string name;
    std::string trayTemplate; ///< node template id of its compute trays
    int trays = 0;
    int switchTrays = 0;
    int domainGpus = 0; ///< trays × the tray template's GPUs
    std::map<std::string, std::string> sources;
};

/// A network switch model of the scale-out fabric.
struct SwitchTemplate
{
    std::string id; ///< e.g. "qm9700"
    std::string name;
    std::string fabric; ///< "infiniband" or "ethernet"
    int ports = 0;
    double portSpeedGbps = 0.0;
    double latencyUs = 0.0; ///< port-to-port
    std::map<std::string, std::string> sources;
};

} // namespace gp
