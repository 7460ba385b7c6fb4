// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

// The rendering check of exported PDFs (issue 17): every page rendered with pdftoppm and its
// words' boxes read with pdftotext -bbox; a problem is a page with nothing on it, ink at its
// edge (something cut by the page), a word cut short ("…"), a word off the page, or two words
// drawn over each other.
#include <QDir>
#include <QImage>
#include <QProcess>
#include <QRectF>
#include <QRegularExpression>
#include <QStringList>
#include <QTemporaryDir>

#include <algorithm>
#include <vector>

namespace gp::test {

struct PdfWord
{
    int page = 0;
    QRectF box;
    QString text;
};

inline QString runTool(const QString& program, const QStringList& args)
{
    QProcess p;
    p.start(program, args);
    p.waitForFinished(180000);
    return QString::fromUtf8(p.readAllStandardOutput());
}

/// Every word with its box, per page (pdftotext -bbox), and each page's size in points.
/// The text of `pdf` as pdftotext -layout lays it out.
inline QString pdfText(const QString& pdf) { return runTool("pdftotext", {"-layout", pdf, "-"}); }

/// The text of one page of `pdf` (1-based).
inline QString pdfPageText(const QString& pdf, int page)
{
    return runTool("pdftotext", {"-layout", "-f", QString::number(page), "-l", QString::number(page), pdf, "-"});
}

/// How many pages `pdf` has (pdfinfo), or -1.
inline int pdfPages(const QString& pdf)
{
    for (const QString& line : runTool("pdfinfo", {pdf}).split('\n'))
        if (line.startsWith("Pages:"))
            return line.section(':', 1).trimmed().toInt();
    return -1;
}

inline std::vector<PdfWord> pdfWords(const QString& pdf, std::vector<QSizeF>* pageSizes = nullptr)
{
    std::vector<PdfWord> out;
    static const QRegularExpression page(R"re(<page width="([\d.]+)" height="([\d.]+)">)re");
    static const QRegularExpression word(
        R"re(<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">(.*)</word>)re");
    int n = 0;
    for (const QString& line : runTool("pdftotext", {"-bbox", pdf, "-"}).split('\n')) {
        if (const auto m = page.match(line); m.hasMatch()) {
            ++n;
            if (pageSizes)
                pageSizes->push_back({m.captured(1).toDouble(), m.captured(2).toDouble()});
        } else if (const auto w = word.match(line); w.hasMatch())
            out.push_back({n,
                           QRectF(QPointF(w.captured(1).toDouble(), w.captured(2).toDouble()),
                                  QPointF(w.captured(3).toDouble(), w.captured(4).toDouble())),
                           w.captured(5)});
    }
    return out;
}

/// What is wrong with the PDF's pages as a reader would see them; empty when nothing is.
/// `margins`: the pages have white margins (a report), so ink at an edge means something was
/// cut; slides bleed their title bars to the edge and skip that check.
inline QStringList renderingProblems(const QString& pdf, bool margins)
{
    QStringList problems;
    std::vector<QSizeF> sizes;
    const std::vector<PdfWord> words = pdfWords(pdf, &sizes);
    if (sizes.empty())
        return {"no pages (pdftotext read nothing)"};
    for (const PdfWord& w : words) {
        const QSizeF size = sizes[static_cast<std::size_t>(w.page - 1)];
        if (w.text.contains(QChar(0x2026)))
            problems << QString("page %1: text cut short: '%2'").arg(w.page).arg(w.text);
        if (w.box.left() < -1 || w.box.top() < -1 || w.box.right() > size.width() + 1 ||
            w.box.bottom() > size.height() + 1)
            problems << QString("page %1: '%2' runs off the page").arg(w.page).arg(w.text);
    }
    for (std::size_t i = 0; i < words.size(); ++i)
        for (std::size_t j = i + 1; j < words.size() && words[j].page == words[i].page; ++j) {
            const QRectF a = words[i].box, b = words[j].box, both = a.intersected(b);
            const double smaller = std::min(a.width() * a.height(), b.width() * b.height());
            if (!both.isEmpty() && smaller > 0 && both.width() * both.height() > 0.3 * smaller)
                problems << QString("page %1: '%2' and '%3' are drawn over each other")
                                .arg(words[i].page)
                                .arg(words[i].text, words[j].text);
        }
    // The pages as pictures: not blank, and (with margins) nothing drawn at the edge.
    QTemporaryDir dir;
    runTool("pdftoppm", {"-r", "40", "-gray", "-png", pdf, dir.filePath("p")});
    QStringList files = QDir(dir.path()).entryList({"p*.png"}, QDir::Files, QDir::Name);
    if (files.size() != static_cast<int>(sizes.size()))
        problems << QString("pdftoppm rendered %1 of %2 pages").arg(files.size()).arg(sizes.size());
    for (int i = 0; i < files.size(); ++i) {
        const QImage img(dir.filePath(files[i]));
        int ink = 0, edge = 0;
        const int band = std::max(2, img.width() / 60);
        for (int y = 0; y < img.height(); ++y)
            for (int x = 0; x < img.width(); ++x)
                if (qGray(img.pixel(x, y)) < 200) {
                    ++ink;
                    edge += (x < band || y < band || x >= img.width() - band || y >= img.height() - band) ? 1 : 0;
                }
        if (ink < img.width() * img.height() / 200)
            problems << QString("page %1 is nearly blank").arg(i + 1);
        if (margins && edge > 0)
            problems << QString("page %1: ink at the page's edge (%2 pixels): something is cut").arg(i + 1).arg(edge);
    }
    return problems;
}

} // namespace gp::test
