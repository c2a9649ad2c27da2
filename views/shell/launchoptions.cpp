#include "views/shell/launchoptions.h"

#include <QCommandLineParser>

LaunchOptions LaunchOptions::parse(const QStringList &arguments)
{
    QCommandLineParser parser;
    const QCommandLineOption db(
        QStringLiteral("db"),
        tr("Open the directory FILE, or the PostgreSQL directory postgresql://USER@HOST:PORT/DB."),
        QStringLiteral("FILE|URL"));
    const QCommandLineOption server(
        QStringLiteral("server"),
        tr("Administer the directory on a server: a saved profile's name or the "
           "server's URL (the owner key from the keychain or CAPDESK_TERMINAL_KEY)."),
        QStringLiteral("PROFILE"));
    parser.addOptions({db, server});
    parser.addPositionalArgument(QStringLiteral("FILE"), tr("The directory file to open."),
                                 QStringLiteral("[FILE]"));

    LaunchOptions options;
    if (!parser.parse(arguments)) {
        options.error = parser.errorText();
        return options;
    }
    const QStringList files = parser.positionalArguments();
    const int sources = int(parser.isSet(db)) + int(parser.isSet(server)) + int(!files.isEmpty());
    if (sources > 1 || files.size() > 1) {
        options.error = tr("give one directory: --db FILE, --server PROFILE or FILE");
        return options;
    }
    if (parser.isSet(server)) {
        options.source = Source::Server;
        options.serverUrl = parser.value(server);
    } else if (parser.isSet(db) || !files.isEmpty()) {
        options.source = Source::File;
        options.file = parser.isSet(db) ? parser.value(db) : files.first();
    }
    return options;
}
