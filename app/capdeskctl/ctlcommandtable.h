#pragma once

#include "app/capdeskctl/ctlcommand.h"

#include <QCommandLineOption>
#include <QList>
#include <QString>
#include <QStringList>

// capdeskctl's one command table (SPEC §11): every command with its options, whether it
// works over --server, its handler, synopsis and summary. CtlArguments parses with it,
// CtlCommands dispatches and refuses options and --server with it, CtlHelp prints the
// usage and `help COMMAND` from it; a man page or a completion script walks commands().
class CtlCommandTable final
{
public:
    // Every command, in the order the usage lists them.
    static const QList<CtlCommand> &commands();
    // What every command takes: --db, --server, --ca-file and --help.
    static const QList<QCommandLineOption> &commonOptions();
    // The common options and every command's, each name once: what the parser knows.
    static QList<QCommandLineOption> allOptions();

    static const CtlCommand *find(const QString &name);
    // The "usage: capdeskctl NAME …" line of a command the table holds, for its handler's
    // usage errors.
    static QString usageLine(const QString &name);
    // The commands of a group ("token": create, list, revoke); empty for a plain command.
    static QList<const CtlCommand *> group(const QString &name);
    // The entry a line names: its command, or for a group the command and its first
    // positional. nullptr, with `error` saying why, when it names none.
    static const CtlCommand *resolve(const QString &command, const QStringList &positional, QString *error);
};
