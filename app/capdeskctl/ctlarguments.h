#pragma once

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
    QSet<QString> given;     // the options used, to refuse ones a command ignores
    QString error;           // set when the line cannot be understood

    static CtlArguments parse(const QStringList &arguments);
};
