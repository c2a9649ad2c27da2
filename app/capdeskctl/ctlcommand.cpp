#include "app/capdeskctl/ctlcommand.h"

#include <algorithm>

using namespace Qt::StringLiterals;

QString CtlCommand::synopsis() const
{
    QStringList parts;
    if (!arguments.isEmpty())
        parts.append(arguments);
    const QStringList named = arguments.split(u' ');
    for (const QCommandLineOption &option : options) {
        const QString flag = u"--"_s + option.names().constFirst();
        if (named.contains(flag) || named.contains(u'[' + flag) || named.contains(u'[' + flag + u']'))
            continue;
        parts.append(option.valueName().isEmpty() ? u"[%1]"_s.arg(flag)
                                                  : u"[%1 %2]"_s.arg(flag, option.valueName()));
    }
    return parts.join(u' ');
}

QString CtlCommand::usageLine() const
{
    const QString text = synopsis();
    return u"usage: capdeskctl "_s + name + (text.isEmpty() ? QString() : u' ' + text);
}

bool CtlCommand::takes(const QString &option) const
{
    return std::any_of(options.cbegin(), options.cend(), [&option](const QCommandLineOption &candidate) {
        return option == u"--"_s + candidate.names().constFirst();
    });
}
