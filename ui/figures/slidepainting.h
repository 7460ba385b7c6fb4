// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

// What the slide painters share (slidedeck.cpp, slidedeckcomparison.cpp). Internal to ui/.

#include <QPainter>
#include <QRectF>
#include <QString>

#include <cstddef>

namespace gp::ui {

/// The slides of a comparison deck, in order.
enum ComparisonSlide
{
    CTitle,
    CKpis,
    CVerdict,
    CDiff,
    CTopology,
    CCost,
    CPredictability,
    CRecommendation,
    CCount
};

/// A slide's title and the rule under it.
void slideTitle(QPainter& p, const QRectF& area, const QString& title);
/// The area under the title.
QRectF bodyOf(const QRectF& area);
/// "A", "B", ... for the compared scenarios.
QString letterOf(std::size_t i);
/// The recommendation slide's text as HTML, or `whenEmpty` greyed out.
QString recommendationHtml(const QString& recommendation, const QString& whenEmpty);

} // namespace gp::ui
