#include "views/common/directorysession.h"
#include "views/common/typeicons.h"
#include "views/shell/connectactions.h"
#include "views/shell/fileactions.h"
#include "views/shell/launchoptions.h"
#include "views/shell/mainwindow.h"

#include <QApplication>

#include <cstdio>

int main(int argc, char *argv[])
{
    QApplication app(argc, argv);
    QCoreApplication::setOrganizationName(QStringLiteral("Capdesk"));
    QCoreApplication::setApplicationName(QStringLiteral("capdesk"));
    QCoreApplication::setApplicationVersion(QString::fromLatin1(CAPDESK_VERSION));
    QGuiApplication::setDesktopFileName(QStringLiteral("capdesk"));
    QApplication::setWindowIcon(TypeIcons::application());

    const LaunchOptions options = LaunchOptions::parse(QCoreApplication::arguments());
    if (!options.error.isEmpty()) {
        std::fprintf(stderr, "capdesk: %s\n", qUtf8Printable(options.error));
        return 2;
    }

    DirectorySession session;
    MainWindow window(session);
    window.show();
    // A server that cannot be reached says why; the window stays up with File → Open
    // and Connect to Server… at hand.
    if (options.source == LaunchOptions::Source::Server)
        window.connectActions()->connectAtStart(options.serverUrl);
    else
        window.fileActions()->openAtStart(options.file);
    return QApplication::exec();
}
