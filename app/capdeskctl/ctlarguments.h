#pragma once

#include <QHash>
#include <QSet>
#include <QString>
#include <QStringList>

// capdeskctl's command line: `COMMAND [--db FILE | --server URL] ARGS…`, options anywhere,
// `--name value` or `--name=value`, and `--` ending the options.
struct CtlArguments
{
    QString command;
    QStringList positional;  // after the command
    QString db;              // --db
    QString server;          // --server
    QString format;          // --format (export)
    QString out;             // --out (export)
    bool sample = false;     // --sample (init)
    bool shape = false;      // --shape (invoke)
    bool help = false;       // --help / -h
    // Options of the receipt, log and token commands, by name ("--key" → value); flags
    // ("--verify") map to an empty string.
    QHash<QString, QString> extra;
    QSet<QString> given;     // the options used, to refuse ones a command ignores
    QString error;           // set when the line cannot be understood

    static CtlArguments parse(const QStringList &arguments);
    bool has(const QString &option) const { return given.contains(option); }
    QString value(const QString &option) const { return extra.value(option); }
};
