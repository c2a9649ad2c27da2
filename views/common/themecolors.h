#pragma once

#include <QColor>
#include <QGuiApplication>
#include <QPalette>
#include <QString>

// Colours picked for text on a light background (syntax, status, lint marks), kept
// readable under a dark palette: where the palette's base is dark, the same hue comes
// back as a light tone, so a dark theme does not turn dark blue on black.
class ThemeColors final
{
public:
    static bool isDark(const QPalette &palette = QGuiApplication::palette());
    static QColor text(const QColor &forLight, const QPalette &palette = QGuiApplication::palette());
    // "color: #rrggbb;" for a style sheet.
    static QString css(const QColor &forLight, const QPalette &palette = QGuiApplication::palette());
};
