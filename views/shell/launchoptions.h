#pragma once

#include <QCoreApplication>
#include <QString>
#include <QStringList>

// The GUI's command line (SPEC §11): `--db FILE`, a bare `FILE`, or `--server PROFILE`
// (a saved server profile's name, or a server's URL); `--version` and `--help` answer and
// exit. Parsed before QApplication exists, so those two need no display.
struct LaunchOptions
{
    Q_DECLARE_TR_FUNCTIONS(LaunchOptions)

public:
    enum class Source { Default, File, Server };

    Source source = Source::Default;
    QString file; // Source::File
    QString serverUrl; // Source::Server: a profile name or a URL, as given
    QString error; // a usage error; non-empty means exit with status 2
    QString answer; // --version or --help: print it and exit with status 0

    static LaunchOptions parse(const QStringList &arguments);
};
