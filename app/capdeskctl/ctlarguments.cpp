#include "app/capdeskctl/ctlarguments.h"

#include "app/capdeskctl/ctlcommandtable.h"

#include <QCommandLineParser>

using namespace Qt::StringLiterals;

namespace {

QString dashed(const QString &name)
{
    return (name.size() == 1 ? u"-"_s : u"--"_s) + name;
}

// `--anchor=FILE` means `--anchor FILE`: the one flag followed by an operand (`log --verify
// --anchor FILE`). Any other flag written `--flag=VALUE` is refused in `error` (the first
// one), so a value never slips in as a body or a path; the line is split on without its
// value, so that the usage error can name the command.
QStringList splitFlagValues(const QStringList &arguments, const QList<QCommandLineOption> &options,
                            QString *error, QString *flag)
{
    static const QString kFlagWithOperand = u"--anchor"_s;
    QSet<QString> flags;
    QSet<QString> valued;
    for (const QCommandLineOption &option : options) {
        for (const QString &name : option.names())
            (option.valueName().isEmpty() ? flags : valued).insert(dashed(name));
    }
    QStringList split = arguments.mid(0, 1);
    for (qsizetype i = 1; i < arguments.size(); ++i) {
        const QString &arg = arguments.at(i);
        if (arg == "--"_L1) {
            split.append(arguments.mid(i));
            break;
        }
        const qsizetype equals = arg.indexOf(u'=');
        if (equals > 0 && flags.contains(arg.left(equals))) {
            if (arg.left(equals) != kFlagWithOperand) {
                if (error->isEmpty()) {
                    *flag = arg.left(equals);
                    *error = u"%1 takes no value"_s.arg(*flag);
                }
                split.append(arg.left(equals));
                continue;
            }
            split << arg.left(equals) << arg.mid(equals + 1);
            continue;
        }
        split.append(arg);
        // The next argument is this option's value, whatever it looks like.
        if (valued.contains(arg) && i + 1 < arguments.size())
            split.append(arguments.at(++i));
    }
    return split;
}

} // namespace

CtlArguments CtlArguments::parse(const QStringList &arguments)
{
    CtlArguments parsed;
    const QList<QCommandLineOption> options = CtlCommandTable::allOptions();
    QCommandLineParser parser;
    parser.addOptions(options);
    const QStringList line = splitFlagValues(arguments, options, &parsed.error, &parsed.flagGivenValue);
    const bool parsedWhole = parser.parse(line);
    // Read on after an unknown option or a flag given a value too, so the usage error can
    // name the command.
    const QStringList positional = parser.positionalArguments();
    parsed.command = positional.value(0);
    parsed.positional = positional.mid(1);
    if (!parsed.error.isEmpty())
        return parsed;
    if (!parsedWhole) {
        if (!parser.unknownOptionNames().isEmpty()) {
            parsed.error = u"unknown option %1"_s.arg(dashed(parser.unknownOptionNames().constFirst()));
        } else {
            // QCommandLineParser's only other refusal: a value option ending the line.
            const QString &last = line.constLast();
            parsed.error = last.startsWith(u'-') ? u"%1 needs a value"_s.arg(last) : parser.errorText();
        }
        return parsed;
    }
    for (const QString &name : parser.optionNames()) {
        if (name == "h"_L1 || name == "help"_L1) {
            parsed.help = true;
            continue;
        }
        if (name == "version"_L1) {
            parsed.version = true;
            continue;
        }
        parsed.given.insert(dashed(name));
        parsed.values.insert(dashed(name), parser.value(name));
    }
    if (parsed.command.isEmpty() && !parsed.help && !parsed.version)
        parsed.error = u"no command given"_s;
    return parsed;
}
