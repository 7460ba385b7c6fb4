// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include <QApplication>
#include <QAreaSeries>
#include <QChart>
#include <QGraphicsLayout>
#include <QLineSeries>
#include <QPalette>

namespace gp::ui {

/// True when the application palette is dark (the system's dark theme, or --palette dark).
inline bool darkPalette() { return QApplication::palette().color(QPalette::Window).lightness() < 128; }

/// Gives a chart the light or dark Qt Charts theme that matches the palette; call it on a
/// new chart before adding series (series colours set explicitly stay as they are).
inline void themeChart(QChart* chart)
{
    chart->setTheme(darkPalette() ? QChart::ChartThemeDark : QChart::ChartThemeLight);
}

/// Fits a chart into a short docked panel: small margins, square corners, a smaller legend and
/// title (Qt Charts gives axes at most 40 % of the height and elides what does not fit).
inline void compactChart(QChart* chart)
{
    chart->setMargins(QMargins(2, 2, 2, 2));
    chart->layout()->setContentsMargins(0, 0, 0, 0);
    chart->setBackgroundRoundness(0);
    QFont small = chart->legend()->font();
    small.setPointSizeF(small.pointSizeF() * 0.8);
    chart->legend()->setFont(small);
    chart->setTitleFont(small);
}

/// Empties a chart for new series: removes and deletes its series and its axes (removeAxis
/// hands an axis back to the caller, so removing alone leaked every axis on each refresh).
inline void clearChart(QChart* chart)
{
    chart->removeAllSeries();
    for (QAbstractAxis* a : chart->axes()) {
        chart->removeAxis(a);
        delete a;
    }
}

/// An area between two lines that owns them (QAreaSeries alone does not delete its lines).
inline QAreaSeries* ownedAreaSeries(QLineSeries* upper, QLineSeries* lower)
{
    auto* area = new QAreaSeries(upper, lower);
    upper->setParent(area);
    if (lower)
        lower->setParent(area);
    return area;
}

} // namespace gp::ui
