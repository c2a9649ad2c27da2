#pragma once

#include <QCommandLineOption>
#include <QList>
#include <QString>
#include <QStringList>

class CtlCommands;

// One entry of capdeskctl's command table (CtlCommandTable): everything the parser, the
// help, the `--server` refusal and, later, the man page and the bash completion need to
// know about a command, as plain data.
struct CtlCommand
{
    enum class Server {
        Works, // against `--server URL`'s directory as against a file
        LocalOnly, // needs the local file itself, so --server is refused
    };

    // "get"; a subcommand is "GROUP SUB" ("token create"), and the line's SUB stays its
    // first positional argument.
    QString name;
    // The arguments after the name ("KEY [BODY]"); every option not named here is added
    // as "[--option VALUE]" by synopsis().
    QString arguments;
    QString summary; // one line
    QStringList details; // the further lines `help NAME` prints
    // Beside the options every command takes (CtlCommandTable::commonOptions()).
    QList<QCommandLineOption> options;
    // Options whose empty value means something (`--fixed-body ""`: the empty body);
    // any other given empty is a usage error.
    QStringList emptyValues = {};
    Server server = Server::Works;
    // What a LocalOnly command says to --server when the general sentence would not help.
    QString serverRefusal = {};
    int (CtlCommands::*run)() = nullptr;

    // "token" for "token create", else the name.
    QString group() const { return name.section(u' ', 0, 0); }
    // arguments followed by the options they do not name.
    QString synopsis() const;
    QString usageLine() const;
    bool takes(const QString &option) const;
};
