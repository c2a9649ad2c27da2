#include "ctlarguments.h"

CtlArguments CtlArguments::parse(const QStringList &arguments)
{
    CtlArguments parsed;
    auto valueOf = [&](qsizetype &i, const QString &name, QString *into) {
        if (i + 1 >= arguments.size()) {
            parsed.error = QStringLiteral("%1 needs a value").arg(name);
            return;
        }
        *into = arguments.at(++i);
    };
    for (qsizetype i = 1; i < arguments.size() && parsed.error.isEmpty(); ++i) {
        const QString &arg = arguments.at(i);
        if (arg == QLatin1String("--db"))
            valueOf(i, arg, &parsed.db);
        else if (arg.startsWith(QLatin1String("--db=")))
            parsed.db = arg.mid(5);
        else if (arg == QLatin1String("--server"))
            valueOf(i, arg, &parsed.server);
        else if (arg == QLatin1String("--format"))
            valueOf(i, arg, &parsed.format);
        else if (arg.startsWith(QLatin1String("--format=")))
            parsed.format = arg.mid(9);
        else if (arg == QLatin1String("--out"))
            valueOf(i, arg, &parsed.out);
        else if (arg == QLatin1String("--sample"))
            parsed.sample = true;
        else if (arg.startsWith(QLatin1String("--")) && arg != QLatin1String("--"))
            parsed.error = QStringLiteral("unknown option %1").arg(arg);
        else if (parsed.command.isEmpty())
            parsed.command = arg;
        else
            parsed.positional.append(arg);
    }
    if (parsed.error.isEmpty() && parsed.command.isEmpty())
        parsed.error = QStringLiteral("no command given");
    return parsed;
}
