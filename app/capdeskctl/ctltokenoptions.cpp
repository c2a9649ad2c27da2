#include "app/capdeskctl/ctltokenoptions.h"

#include "dispatch/tokens/capabilitytoken.h"

using namespace Qt::StringLiterals;

namespace CtlTokenOptions {

namespace {

QString audienceMistake(const CtlArguments &args)
{
    if (!args.has(u"--audience"_s))
        return u"token create needs --audience A"_s;
    if (args.value(u"--audience"_s).trimmed().isEmpty())
        return u"--audience needs a value"_s;
    return {};
}

// A token reaches nothing without keys or categories; --pin names its one key.
QString scopeMistake(const CtlArguments &args)
{
    for (const QString &option : {u"--keys"_s, u"--categories"_s, u"--pin"_s}) {
        if (!CapabilityToken::splitList(args.value(option)).isEmpty())
            return {};
    }
    return u"token create needs --keys K,…, --categories C,… or --pin KEY"_s;
}

QString riskMistake(const CtlArguments &args)
{
    const QString risk = args.value(u"--risk-ceiling"_s);
    if (!args.has(u"--risk-ceiling"_s) || risk == "low"_L1 || risk == "high"_L1)
        return {};
    return u"--risk-ceiling takes low or high, not '%1'"_s.arg(risk);
}

QString payloadMistake(const CtlArguments &args)
{
    if (!args.has(u"--payload-ceiling"_s))
        return {};
    const QString text = args.value(u"--payload-ceiling"_s);
    bool number = false;
    const qint64 bytes = text.toLongLong(&number);
    if (number && bytes >= 0)
        return {};
    return u"--payload-ceiling takes a number of bytes, 0 or more, not '%1'"_s.arg(text);
}

QString expiryMistake(const CtlArguments &args, const QDateTime &nowUtc)
{
    if (!args.has(u"--expires"_s))
        return {};
    const QString text = args.value(u"--expires"_s);
    const StoreResult<QString> resolved = CapabilityToken::resolveExpiry(text, nowUtc);
    if (!resolved.ok() || resolved.value().isEmpty())
        return u"--expires takes an ISO-8601 time or a count like 90m, 12h, 30d or 2w, not '%1'"_s.arg(text);
    if (QDateTime::fromString(resolved.value(), Qt::ISODateWithMs) <= nowUtc)
        return u"--expires %1 has already passed"_s.arg(resolved.value());
    return {};
}

} // namespace

QString mistake(const CtlArguments &args, const QDateTime &nowUtc)
{
    for (const QString &found : {audienceMistake(args), scopeMistake(args), riskMistake(args),
                                 payloadMistake(args), expiryMistake(args, nowUtc)}) {
        if (!found.isEmpty())
            return found;
    }
    return {};
}

} // namespace CtlTokenOptions
