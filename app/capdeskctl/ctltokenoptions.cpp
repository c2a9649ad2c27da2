#include "app/capdeskctl/ctltokenoptions.h"

#include "dispatch/tokens/capabilitytoken.h"

#include <limits>

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

// A token reaches nothing without keys or categories; --pin names its one key, and a
// pinned token reaches that key alone.
QString scopeMistake(const CtlArguments &args)
{
    const QStringList keys = CapabilityToken::splitList(args.value(u"--keys"_s));
    const QStringList categories = CapabilityToken::splitList(args.value(u"--categories"_s));
    const QString pin = args.value(u"--pin"_s).trimmed();
    if (!pin.isEmpty() && (!categories.isEmpty() || (!keys.isEmpty() && keys != QStringList{pin})))
        return u"--pin %1 reaches %1 alone; leave out --keys and --categories"_s.arg(pin);
    if (keys.isEmpty() && categories.isEmpty() && pin.isEmpty())
        return u"token create needs --keys K,…, --categories C,… or --pin KEY"_s;
    return {};
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
    return u"--payload-ceiling takes a whole number of bytes from 0 to %1, not '%2'"_s.arg(
        QString::number(std::numeric_limits<qint64>::max()), text);
}

QString expiryMistake(const CtlArguments &args, const QDateTime &nowUtc)
{
    if (!args.has(u"--expires"_s))
        return {};
    const QString text = args.value(u"--expires"_s);
    const StoreResult<QString> resolved = CapabilityToken::resolveExpiry(text, nowUtc);
    if (!resolved.ok())
        return u"--expires takes an ISO-8601 time or a count like 90m, 12h, 30d or 2w, not '%1'"_s.arg(text);
    if (text.trimmed().isEmpty())
        return u"--expires needs a value"_s;
    const QDateTime when = QDateTime::fromString(resolved.value(), Qt::ISODateWithMs);
    // A count too large for a date (999999w) resolves to no time at all.
    if (!when.isValid() || when.date().year() > 9999)
        return u"--expires %1 is too far ahead (the latest is the year 9999)"_s.arg(text);
    if (when <= nowUtc)
        return u"--expires %1 has already passed (%2)"_s.arg(text, resolved.value());
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
