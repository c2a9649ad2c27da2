#pragma once

#include <QHash>
#include <QSet>
#include <QString>
#include <QStringList>

// capdeskctl's command line: `COMMAND [--db FILE | --server URL] ARGS…`, options anywhere,
// `--name value` or `--name=value`, and `--` ending the options. Parsed with
// QCommandLineParser over every option of the command table (CtlCommandTable); which
// options the command takes is checked once the command is known (CtlCommands).
struct CtlArguments
{
    QString command;
    QStringList positional; // after the command
    bool help = false; // --help / -h
    bool version = false; // --version
    // The options given, by name ("--key" → value); a flag ("--verify") maps to an empty
    // string. With `--name` given twice, the last value counts.
    QHash<QString, QString> values;
    QSet<QString> given; // their names, to refuse ones a command ignores
    QString error; // set when the line cannot be understood
    // A flag written `--flag=VALUE` although it takes no value (the error says so); a
    // command that does not take the flag at all says that instead.
    QString flagGivenValue;

    static CtlArguments parse(const QStringList &arguments);
    bool has(const QString &option) const { return given.contains(option); }
    QString value(const QString &option) const { return values.value(option); }
};
