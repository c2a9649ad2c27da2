#pragma once

#include <QList>
#include <QString>

#include <cstdio>

struct CtlCommand;

// capdeskctl's help, written from the command table: the usage (`--help`, and after a
// usage error) and `help COMMAND`.
class CtlHelp final
{
public:
    static QString usage();
    // The usage line of one command, wrapped as the help wraps it.
    static QString usageOf(const CtlCommand &command);
    // One command's synopsis, summary, details, options and what --server does to it; a
    // group's members one after another.
    static QString command(const QList<const CtlCommand *> &commands);

    static void print(const QString &text, std::FILE *to);
};
