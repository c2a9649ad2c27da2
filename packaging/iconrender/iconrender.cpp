// Renders Capdesk's scalable icon to the PNG sizes of the hicolor theme at build time,
// so the package carries bitmaps that match the SVG exactly and no PNG is committed.
//
//   capdesk_iconrender ICON.svg SIZE OUT.png

#include <QGuiApplication>
#include <QImage>
#include <QPainter>
#include <QSvgRenderer>

#include <cstdio>

int main(int argc, char *argv[])
{
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QGuiApplication app(argc, argv);
    const QStringList arguments = QCoreApplication::arguments();
    bool sized = false;
    const int size = arguments.value(2).toInt(&sized);
    if (arguments.size() != 4 || !sized || size < 8 || size > 1024) {
        std::fputs("usage: capdesk_iconrender ICON.svg SIZE(8-1024) OUT.png\n", stderr);
        return 2;
    }
    QSvgRenderer renderer(arguments.at(1));
    if (!renderer.isValid()) {
        std::fprintf(stderr, "capdesk_iconrender: %s is not an SVG it can draw\n",
                     qUtf8Printable(arguments.at(1)));
        return 1;
    }
    QImage image(size, size, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::transparent);
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    renderer.render(&painter);
    painter.end();
    if (!image.save(arguments.at(3), "PNG")) {
        std::fprintf(stderr, "capdesk_iconrender: cannot write %s\n", qUtf8Printable(arguments.at(3)));
        return 1;
    }
    return 0;
}
