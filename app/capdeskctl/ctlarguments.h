#pragma once

#include <QString>
#include <QStringList>

// capdeskctl's command line: `COMMAND [--db FILE | --server URL] ARGS…`, options anywhere.
struct CtlArguments
{
    QString command;
    QStringList positional;  // after the command
    QString db;              // --db
    QString server;          // --server
    QString format;          // --format (export)
    QString out;             // --out (export)
    bool sample = false;     // --sample (init)
    QString error;           // set when the line cannot be understood

    static CtlArguments parse(const QStringList &arguments);
};
