#include "views/shell/launchoptions.h"

#include "dispatch/core/productversion.h"

#include <QCommandLineParser>

namespace {

QString usage(const QList<QCommandLineOption> &options)
{
    QString text = LaunchOptions::tr("usage: capdesk [--db FILE|URL | --server PROFILE | FILE]\n"
                                     "The desktop for a capability directory.\n\n");
    for (const QCommandLineOption &option : options) {
        QStringList names;
        for (const QString &name : option.names())
            names.append((name.size() == 1 ? QStringLiteral("-") : QStringLiteral("--")) + name);
        QString head = QStringLiteral("  ") + names.join(QStringLiteral(", "));
        if (!option.valueName().isEmpty())
            head += u' ' + option.valueName();
        text += head.leftJustified(22) + u' ' + option.description() + u'\n';
    }
    return text;
}

} // namespace

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
    const QCommandLineOption version(QStringLiteral("version"), tr("Print capdesk's version and exit."));
    const QCommandLineOption help({QStringLiteral("h"), QStringLiteral("help")},
                                  tr("Print this help and exit."));
    parser.addOptions({db, server, version, help});
    parser.addPositionalArgument(QStringLiteral("FILE"), tr("The directory file to open."),
                                 QStringLiteral("[FILE]"));

    LaunchOptions options;
    if (!parser.parse(arguments)) {
        options.error = parser.errorText();
        return options;
    }
    if (parser.isSet(version)) {
        options.answer = QStringLiteral("capdesk %1\n").arg(ProductVersion::number());
        return options;
    }
    if (parser.isSet(help)) {
        options.answer = usage({db, server, version, help});
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
