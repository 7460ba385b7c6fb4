// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// What the benchmark readers share (benchmarkimport.cpp, servingbenchmarks.cpp, traininglogs.cpp);
// not part of io's interface.
#pragma once

#include "benchmarkimport.h"

#include <QJsonObject>
#include <QJsonValue>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gp::io::bench {

/// Where a file's measurements go: each gets the file's tool, when and config, and its own source.
struct Sink
{
    std::string file;
    std::string tool;
    std::string when;
    std::map<std::string, std::string> config;
    std::vector<Measurement>* out = nullptr;
    Issues* issues = nullptr;

    /// One measurement at `where` ("json.path" or "line N"); a value that is not finite or below 0
    /// is an error there, never kept.
    void add(MeasuredQuantity q, MeasuredStatistic s, double value, const std::string& where) const;
    void error(const std::string& where, const std::string& why) const;
    void warning(const std::string& where, const std::string& why) const;
};

/// "a.b" or "b" when `base` is empty.
std::string joinPath(const std::string& base, const std::string& key);

/// A JSON number at `key` of `o` (at `path`): nullopt, silently, when absent or null; an error when
/// present and not a number.
std::optional<double> number(const QJsonObject& o, const std::string& path, const char* key, const Sink& sink);
/// The same, but absent or null is an error too ("the file has no ...").
std::optional<double> requiredNumber(const QJsonObject& o, const std::string& path, const char* key, const Sink& sink);
/// A config value as the file writes it: strings as they are, numbers shortest, true/false; "" for
/// null, objects and arrays.
std::string configText(const QJsonValue& v);
/// Puts `o[key]` into the config as `name` when it is a string, number or bool.
void configFrom(const QJsonObject& o, const char* key, const std::string& name, Sink& sink);
/// A number for the config ("128", "7099.53").
std::string numberText(double v);

/// Each non-blank line of `bytes` with its 1-based number, '\r' line ends removed.
std::vector<std::pair<int, std::string>> lines(const QByteArray& bytes);

// One reader per format. Each adds to sink.out and reports to sink.issues; the caller sets sink.file.
void readTrtllmJson(const QJsonObject& root, Sink& sink);
void readTrtllmText(const QByteArray& bytes, Sink& sink);
/// vLLM's result JSON or SGLang's lines: `records` are the file's objects with their sources'
/// prefix ("" for a whole-file object, "line N" for JSON lines).
void readVllm(const std::vector<std::pair<std::string, QJsonObject>>& records, Sink& sink);
void readSglang(const std::vector<std::pair<std::string, QJsonObject>>& records, Sink& sink);
void readPerfExport(const QJsonObject& root, bool aiperf, Sink& sink);
void readMegatron(const QByteArray& bytes, int skipWarmup, Sink& sink);
void readNemo(const QByteArray& bytes, int skipWarmup, Sink& sink);
void readComposer(const QByteArray& bytes, int skipWarmup, Sink& sink);

/// The mean of a training log's kept values (`values` non-empty).
double mean(const std::vector<double>& values);

} // namespace gp::io::bench
