#include "dispatch/core/productversion.h"
#include "dispatch/receipts/opensslexit.h"
#include "views/common/directorysession.h"
#include "views/common/startuptrace.h"
#include "views/common/typeicons.h"
#include "views/shell/connectactions.h"
#include "views/shell/fileactions.h"
#include "views/shell/launchoptions.h"
#include "views/shell/mainwindow.h"
#include "views/table/directorytableview.h"

#include <QApplication>

#include <algorithm>
#include <cstdio>

namespace {

QStringList argumentsOf(int argc, char *argv[])
{
    QStringList arguments;
    for (int i = 0; i < argc; ++i)
        arguments.append(QString::fromLocal8Bit(argv[i]));
    return arguments;
}

// Qt's own options have one dash (-platform, -style); capdesk's have two, besides -h.
bool hasQtOptions(const QStringList &arguments)
{
    return std::any_of(arguments.cbegin() + 1, arguments.cend(), [](const QString &argument) {
        return argument.startsWith(u'-') && !argument.startsWith(QStringLiteral("--"))
               && argument != QStringLiteral("-h");
    });
}

// Prints what a line that opens no window answers (a usage error, --version, --help);
// false when the line opens the window.
bool answered(const LaunchOptions &options)
{
    if (!options.error.isEmpty())
        std::fprintf(stderr, "capdesk: %s\n", qUtf8Printable(options.error));
    else if (!options.answer.isEmpty())
        std::fputs(qUtf8Printable(options.answer), stdout);
    return !options.error.isEmpty() || !options.answer.isEmpty();
}

int exitCodeOf(const LaunchOptions &options)
{
    return options.error.isEmpty() ? 0 : 2;
}

} // namespace

int main(int argc, char *argv[])
{
    OpenSslExit::leaveCleanupToProcessExit();
    StartupTrace::begin();
    // --version, --help and a usage error answer before QApplication, which needs a
    // display. With Qt's own options (-platform, -style: one dash) the line is read again
    // once QApplication has taken those away.
    if (const QStringList arguments = argumentsOf(argc, argv); !hasQtOptions(arguments)) {
        const LaunchOptions early = LaunchOptions::parse(arguments);
        if (answered(early))
            return exitCodeOf(early);
    }

    QApplication app(argc, argv);
    StartupTrace::mark("QApplication");
    QCoreApplication::setOrganizationName(QStringLiteral("Capdesk"));
    QCoreApplication::setApplicationName(QStringLiteral("capdesk"));
    QCoreApplication::setApplicationVersion(ProductVersion::number());
    QGuiApplication::setDesktopFileName(QStringLiteral("capdesk"));
    QApplication::setWindowIcon(TypeIcons::application());

    const LaunchOptions options = LaunchOptions::parse(QCoreApplication::arguments());
    if (answered(options))
        return exitCodeOf(options);

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
