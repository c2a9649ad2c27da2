#include "views/common/themecolors.h"
#include "views/editor/contenthighlighter.h"

#include <QApplication>
#include <QTest>

// ThemeColors under a light and a dark palette, and the content highlighter's colours,
// which go through it: readable (light) on a dark base, untouched on a light one.
class TestThemeColors final : public QObject
{
    Q_OBJECT

private:
    static QPalette withBase(const QColor &base)
    {
        QPalette palette;
        palette.setColor(QPalette::Base, base);
        return palette;
    }

private slots:
    void cleanup() { QApplication::setPalette(QPalette()); }

    void textColour_data()
    {
        QTest::addColumn<QColor>("forLight");
        QTest::addColumn<QColor>("base");
        QTest::addColumn<bool>("kept");

        QTest::addRow("light base keeps dark blue") << QColor(0x1f, 0x5f, 0xc8) << QColor(Qt::white) << true;
        QTest::addRow("dark base lifts dark blue")
            << QColor(0x1f, 0x5f, 0xc8) << QColor(0x1e, 0x1e, 0x1e) << false;
        QTest::addRow("dark base lifts dark red")
            << QColor(0xb0, 0x1c, 0x1c) << QColor(0x20, 0x20, 0x28) << false;
        QTest::addRow("dark base keeps a light colour")
            << QColor(0xe0, 0xe0, 0x80) << QColor(Qt::black) << true;
    }
    void textColour()
    {
        QFETCH(QColor, forLight);
        QFETCH(QColor, base);
        QFETCH(bool, kept);
        const QColor shown = ThemeColors::text(forLight, withBase(base));
        if (kept) {
            QCOMPARE(shown, forLight);
            return;
        }
        QVERIFY2(shown.lightness() >= 170, qPrintable(shown.name()));
        QCOMPARE(shown.toHsl().hslHue(), forLight.toHsl().hslHue());
        QCOMPARE(ThemeColors::css(forLight, withBase(base)), QStringLiteral("color: %1;").arg(shown.name()));
    }

    void highlighterFollowsTheApplicationPalette()
    {
        using Kind = ContentHighlighter::Kind;
        for (const Kind kind : {Kind::DocLine, Kind::DocTag, Kind::Arg, Kind::ArgRest, Kind::Unescaped,
                                Kind::Prev, Kind::Name}) {
            QApplication::setPalette(withBase(Qt::white));
            const QColor light = ContentHighlighter::format(kind).foreground().color();
            QApplication::setPalette(withBase(QColor(0x1e, 0x1e, 0x1e)));
            const QColor dark = ContentHighlighter::format(kind).foreground().color();
            QVERIFY2(dark.lightness() >= 170, qPrintable(dark.name()));
            QVERIFY(dark.lightness() > light.lightness());
        }
    }
};

QTEST_MAIN(TestThemeColors)
#include "tst_themecolors.moc"
