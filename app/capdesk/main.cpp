#include "dispatch/core/productversion.h"
#include "views/common/directorysession.h"
#include "views/common/startuptrace.h"
#include "views/common/typeicons.h"
#include "views/shell/connectactions.h"
#include "views/shell/fileactions.h"
#include "views/shell/launchoptions.h"
#include "views/shell/mainwindow.h"
#include "views/table/directorytableview.h"

#include <QApplication>

#include <cstdio>

namespace {

QStringList argumentsOf(int argc, char *argv[])
{
    QStringList arguments;
    for (int i = 0; i < argc; ++i)
        arguments.append(QString::fromLocal8Bit(argv[i]));
    return arguments;
}

} // namespace

int main(int argc, char *argv[])
{
    StartupTrace::begin();
    // --version and --help answer before QApplication, which needs a display. The real
    // parse waits for QApplication, which takes away Qt's own options (-platform, -style).
    if (const QString answer = LaunchOptions::parse(argumentsOf(argc, argv)).answer; !answer.isEmpty()) {
        std::fputs(qUtf8Printable(answer), stdout);
        return 0;
    }

    QApplication app(argc, argv);
    StartupTrace::mark("QApplication");
    QCoreApplication::setOrganizationName(QStringLiteral("Capdesk"));
    QCoreApplication::setApplicationName(QStringLiteral("capdesk"));
    QCoreApplication::setApplicationVersion(ProductVersion::number());
    QGuiApplication::setDesktopFileName(QStringLiteral("capdesk"));
    QApplication::setWindowIcon(TypeIcons::application());

    const LaunchOptions options = LaunchOptions::parse(QCoreApplication::arguments());
    if (!options.error.isEmpty()) {
        std::fprintf(stderr, "capdesk: %s\n", qUtf8Printable(options.error));
        return 2;
    }

    DirectorySession session;
    MainWindow window(session);
    StartupTrace::mark("window built");
    StartupTrace::watchPaints(window.tableView()->viewport());
    window.show();
    StartupTrace::mark("window shown");
    // A server that cannot be reached says why; the window stays up with File → Open
    // and Connect to Server… at hand.
    if (options.source == LaunchOptions::Source::Server)
        window.connectActions()->connectAtStart(options.serverUrl);
    else
        window.fileActions()->openAtStart(options.file);
    StartupTrace::mark("directory opened");
    return QApplication::exec();
}
