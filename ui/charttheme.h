#pragma once

#include <QApplication>
#include <QChart>
#include <QPalette>

namespace gp::ui {

/// True when the application palette is dark (the system's dark theme, or --palette dark).
inline bool darkPalette()
{
    return QApplication::palette().color(QPalette::Window).lightness() < 128;
}

/// Gives a chart the light or dark Qt Charts theme that matches the palette; call it on a
/// new chart before adding series (series colours set explicitly stay as they are).
inline void themeChart(QChart* chart)
{
    chart->setTheme(darkPalette() ? QChart::ChartThemeDark : QChart::ChartThemeLight);
}

} // namespace gp::ui
