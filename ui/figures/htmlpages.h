// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include <QSizeF>
#include <QString>
#include <QStringList>

#include <vector>

namespace gp::ui {

/// A table of the report continued over as many pages as its rows need: each page is measured
/// as drawHtml (planfigures.h) lays it out, so a row is never cut off at the bottom of a page.
struct PagedTable
{
    QString before;    ///< above the table on its first page
    QString continued; ///< above it on the next pages ("continued from the previous page")
    QString open;      ///< the table's opening tag, <table …>
    QString header;    ///< the table's first row, <tr>…</tr>, repeated on every page
    QStringList rows;  ///< <tr>…</tr> each
    QString empty;     ///< in place of the table when there are no rows
    QString after;     ///< below the table on its last page, or on a page of its own
    int maxPages = 4;  ///< of rows; the rest are counted under the last
    /// What stands under the last page for the rows there was no room for (`more` rows, of them
    /// `flagged` flagged); the rows are counted whatever it says.
    QString (*moreText)(int more, int flagged) = nullptr;
    std::vector<bool> flagged; ///< per row, for moreText
};

/// Lays the table out on pages of `area` at `pointSize` (the default font of drawHtml): the HTML
/// each page draws, at least one page.
std::vector<QString> paginate(const PagedTable& table, const QSizeF& area, int pointSize);

/// The height `html` takes at `width` and `pointSize`, as drawHtml lays it out.
double htmlHeight(const QString& html, double width, int pointSize);

} // namespace gp::ui
