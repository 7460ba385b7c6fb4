// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// Precompiled header of the workbench (ui/, app/) and the tests: Qt Widgets and Qt Charts
// whole, which every view includes piecemeal; parsing them once per target instead of once
// per file is most of what it saves (docs/testing.md).
#include "qtcore.h"

#include <QtCharts>
#include <QtWidgets>
