// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "htmlpages.h"

#include <QFont>
#include <QTextDocument>

#include <algorithm>

namespace gp::ui {

double htmlHeight(const QString& html, double width, int pointSize)
{
    QTextDocument doc; // as drawHtml sets it up
    doc.setDefaultFont(QFont("DejaVu Sans", pointSize));
    doc.setTextWidth(width);
    doc.setHtml(html);
    return doc.size().height();
}

std::vector<QString> paginate(const PagedTable& t, const QSizeF& area, int pointSize)
{
    const auto fits = [&](const QString& html) { return htmlHeight(html, area.width(), pointSize) <= area.height(); };
    const auto table = [&](int from, int to) {
        QString html = t.open + t.header;
        for (int i = from; i < to; ++i)
            html += t.rows[i];
        return html + "</table>";
    };
    const auto more = [&](int from) {
        const int left = static_cast<int>(t.rows.size()) - from;
        if (left <= 0 || !t.moreText)
            return QString();
        int flagged = 0;
        for (int i = from; i < static_cast<int>(t.rows.size()); ++i)
            flagged += i < static_cast<int>(t.flagged.size()) && t.flagged[static_cast<std::size_t>(i)] ? 1 : 0;
        return t.moreText(left, flagged);
    };

    std::vector<QString> pages;
    const int n = static_cast<int>(t.rows.size());
    int i = 0;
    if (n == 0)
        pages.push_back(t.before + t.empty);
    while (i < n && static_cast<int>(pages.size()) < std::max(1, t.maxPages)) {
        const QString head = pages.empty() ? t.before : t.continued;
        const bool lastAllowed = static_cast<int>(pages.size()) + 1 == std::max(1, t.maxPages);
        // As many rows as fit, at least one; on the last page allowed, room for the count of the
        // rest (the widest count stands in for it).
        const QString reserve = lastAllowed && t.moreText ? t.moreText(n, n) : QString();
        int take = 1;
        while (i + take < n && fits(head + table(i, i + take + 1) + reserve))
            ++take;
        pages.push_back(head + table(i, i + take));
        i += take;
    }
    pages.back() += more(i);
    if (!t.after.isEmpty()) {
        if (fits(pages.back() + t.after))
            pages.back() += t.after;
        else
            pages.push_back(t.after);
    }
    return pages;
}

} // namespace gp::ui
