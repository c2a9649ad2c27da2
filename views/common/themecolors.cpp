#include "views/common/themecolors.h"

namespace {

// HSL lightness a text colour gets on a dark base: light enough to read, still coloured.
constexpr int darkThemeLightness = 175;

} // namespace

bool ThemeColors::isDark(const QPalette &palette)
{
    return palette.color(QPalette::Base).lightness() < 128;
}

QColor ThemeColors::text(const QColor &forLight, const QPalette &palette)
{
    if (!isDark(palette) || forLight.lightness() >= darkThemeLightness)
        return forLight;
    const QColor hsl = forLight.toHsl();
    return QColor::fromHsl(hsl.hslHue(), hsl.hslSaturation(), darkThemeLightness).toRgb();
}

QString ThemeColors::css(const QColor &forLight, const QPalette &palette)
{
    return QStringLiteral("color: %1;").arg(text(forLight, palette).name());
}
