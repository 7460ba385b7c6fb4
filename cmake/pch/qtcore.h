// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// Precompiled header of the Qt Core layers (io, store, document) and the CLI.
#include "std.h"

#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonValue>
#include <QObject>
#include <QSaveFile>
#include <QString>
#include <QStringList>
#include <QTextStream>
#include <QTimer>
