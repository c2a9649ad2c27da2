#include "app/capdeskctl/ctlarguments.h"

#include <QHash>

namespace {

QString *valueSlot(CtlArguments &parsed, const QString &name)
{
    if (name == QLatin1String("--db"))
        return &parsed.db;
    if (name == QLatin1String("--server"))
        return &parsed.server;
    if (name == QLatin1String("--format"))
        return &parsed.format;
    if (name == QLatin1String("--out"))
        return &parsed.out;
    return nullptr;
}

const QSet<QString> &extraValueOptions()
{
    static const QSet<QString> options{
        QStringLiteral("--key"),         QStringLiteral("--public-key"),      QStringLiteral("--status"),
        QStringLiteral("--since"),       QStringLiteral("--until"),           QStringLiteral("--limit"),
        QStringLiteral("--audience"),    QStringLiteral("--keys"),            QStringLiteral("--categories"),
        QStringLiteral("--risk-ceiling"), QStringLiteral("--pin"),            QStringLiteral("--fixed-body"),
        QStringLiteral("--payload-ceiling"), QStringLiteral("--expires"),     QStringLiteral("--label"),
        QStringLiteral("--token"),       QStringLiteral("--parent"),          QStringLiteral("--listen"),
        QStringLiteral("--dispatch-timeout"), QStringLiteral("--idle-timeout"), QStringLiteral("--ca-file"),
        QStringLiteral("--tls-cert"),    QStringLiteral("--tls-key"),
        QStringLiteral("--request-timeout"), QStringLiteral("--max-connections"),
        QStringLiteral("--max-connections-per-address"), QStringLiteral("--max-header-bytes"),
        QStringLiteral("--max-body-bytes"), QStringLiteral("--max-unsent-bytes"),
        QStringLiteral("--max-output-bytes"), QStringLiteral("--max-tree-calls"), QStringLiteral("--max-tree-bytes"),
        QStringLiteral("--max-fan-out"), QStringLiteral("--call-timeout"),
    };
    return options;
}

const QSet<QString> &extraFlags()
{
    static const QSet<QString> flags{QStringLiteral("--verify"),        QStringLiteral("--anchor"),
                                     QStringLiteral("--owner-gate"),    QStringLiteral("--owner-present"),
                                     QStringLiteral("--generate-key"),  QStringLiteral("--allow-noncompliant"),
                                     QStringLiteral("--restamp")};
    return flags;
}

} // namespace

CtlArguments CtlArguments::parse(const QStringList &arguments)
{
    CtlArguments parsed;
    bool optionsEnded = false;
    for (qsizetype i = 1; i < arguments.size() && parsed.error.isEmpty(); ++i) {
        const QString &arg = arguments.at(i);
        const bool isOption = !optionsEnded && arg.startsWith(u'-') && arg.size() > 1;
        if (!isOption) {
            if (parsed.command.isEmpty())
                parsed.command = arg;
            else
                parsed.positional.append(arg);
            continue;
        }
        if (arg == QLatin1String("--")) {
            optionsEnded = true;
            continue;
        }
        const qsizetype equals = arg.indexOf(u'=');
        const QString name = equals < 0 ? arg : arg.left(equals);
        if (name == QLatin1String("--help") || name == QLatin1String("-h")) {
            parsed.help = true;
        } else if (name == QLatin1String("--sample")) {
            parsed.sample = true;
        } else if (name == QLatin1String("--shape")) {
            parsed.shape = true;
        } else if (extraFlags().contains(name)) {
            // `--anchor=FILE` names the file `log --verify --anchor FILE` also takes.
            parsed.extra.insert(name, equals < 0 ? QString() : arg.mid(equals + 1));
        } else if (QString *slot = valueSlot(parsed, name); slot || extraValueOptions().contains(name)) {
            QString value;
            if (!slot)
                slot = &value;
            if (equals >= 0)
                *slot = arg.mid(equals + 1);
            else if (i + 1 < arguments.size())
                *slot = arguments.at(++i);
            else
                parsed.error = QStringLiteral("%1 needs a value").arg(name);
            if (parsed.error.isEmpty() && slot->isEmpty() && name != QLatin1String("--fixed-body"))
                parsed.error = QStringLiteral("%1 needs a value").arg(name);
            if (slot == &value)
                parsed.extra.insert(name, value);
        } else {
            parsed.error = QStringLiteral("unknown option %1").arg(arg);
            break;
        }
        parsed.given.insert(name);
    }
    if (parsed.error.isEmpty() && parsed.command.isEmpty() && !parsed.help)
        parsed.error = QStringLiteral("no command given");
    return parsed;
}
