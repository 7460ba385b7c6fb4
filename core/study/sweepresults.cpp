// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// A sweep's results.csv read back: the workbench's sweep view and the charts (docs/sweeps.md).
#include "sweep.h"

#include <QStringList>

#include <algorithm>

namespace gp::study {

namespace {

/// One CSV line into cells (quotes doubled inside quoted cells, as cell() writes them).
QStringList csvCells(const QString& line)
{
    QStringList out;
    QString cur;
    bool quoted = false;
    for (int i = 0; i < line.size(); ++i) {
        const QChar c = line[i];
        if (quoted) {
            if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
                cur += '"';
                ++i;
            } else if (c == '"')
                quoted = false;
            else
                cur += c;
        } else if (c == '"')
            quoted = true;
        else if (c == ',') {
            out << cur;
            cur.clear();
        } else
            cur += c;
    }
    out << cur;
    return out;
}

} // namespace

Result<SweepTable> readSweepResults(const QByteArray& csv)
{
    using R = Result<SweepTable>;
    const QStringList lines = QString::fromUtf8(csv).split('\n', Qt::SkipEmptyParts);
    if (lines.isEmpty())
        return R::failure("results.csv", "is empty");
    const QStringList header = csvCells(lines.front());
    const auto first = header.indexOf("node_count");
    if (header.value(0) != "point" || first < 1 || header.back() != "error")
        return R::failure("results.csv:1", "not a sweep's results (the header is not point, axes…, node_count, …)");
    SweepTable t;
    t.kind = header.contains("failed_tasks") ? SweepKind::Replay : SweepKind::WhatIf;
    for (qsizetype c = 1; c < first; ++c)
        t.axes.push_back(header[c].toStdString());
    for (qsizetype l = 1; l < lines.size(); ++l) {
        const QStringList cells = csvCells(lines[l]);
        if (cells.size() != header.size())
            return R::failure("results.csv:" + std::to_string(l + 1),
                              std::to_string(cells.size()) + " cells, the header has " + std::to_string(header.size()));
        SweepTable::Row row;
        row.point = cells[0].toLongLong();
        for (qsizetype c = 1; c < first; ++c)
            row.values.push_back(cells[c].toStdString());
        row.error = cells.back().toStdString();
        if (row.error.empty())
            for (qsizetype c = first; c + 1 < header.size(); ++c) {
                bool ok = false;
                const double v = cells[c] == "true" ? 1.0 : cells[c] == "false" ? 0.0 : cells[c].toDouble(&ok);
                if (ok || cells[c] == "true" || cells[c] == "false")
                    row.figures[header[c].toStdString()] = v;
            }
        t.rows.push_back(std::move(row));
    }
    return R::success(std::move(t));
}

std::vector<std::pair<std::string, double>> sweepMeans(const SweepTable& table, std::size_t axis,
                                                       const std::string& figure)
{
    std::vector<std::pair<std::string, double>> out;
    std::vector<int> counts;
    for (const SweepTable::Row& r : table.rows) {
        const auto f = r.figures.find(figure);
        if (axis >= r.values.size() || f == r.figures.end())
            continue;
        auto it = std::find_if(out.begin(), out.end(), [&](const auto& p) { return p.first == r.values[axis]; });
        if (it == out.end()) {
            out.emplace_back(r.values[axis], 0.0);
            counts.push_back(0);
            it = out.end() - 1;
        }
        it->second += f->second;
        ++counts[static_cast<std::size_t>(it - out.begin())];
    }
    for (std::size_t i = 0; i < out.size(); ++i)
        out[i].second /= counts[i];
    return out;
}

} // namespace gp::study
