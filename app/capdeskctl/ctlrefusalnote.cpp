#include "app/capdeskctl/ctlrefusalnote.h"

#include <QHash>
#include <QRegularExpression>

using namespace Qt::StringLiterals;

namespace CtlRefusalNote {

namespace {

QString meaning(const QString &reason)
{
    static const QHash<QString, QString> whole{
        {u"unknown_token"_s,
         u"no token of this directory matched that value: mistyped, or made for another directory"_s},
        {u"revoked"_s, u"the token was revoked; its owner can make a new one with token create"_s},
        {u"expired"_s, u"the token has expired; its owner can make a new one with token create"_s},
        {u"audience_mismatch"_s,
         u"--audience is not the audience the token was made for (token list shows it)"_s},
        {u"owner_gate"_s,
         u"the token calls only with its owner present: add --owner-present when they are"_s},
        {u"fixed_body"_s,
         u"the token allows one body only, and this call's body is another (compared byte for byte: spacing "
         "counts)"_s},
        {u"risk_ceiling:low<row:high"_s, u"the row is sensitive and the token's risk ceiling is low; a token "
                                         "made with --risk-ceiling high may call it"_s},
    };
    if (const auto known = whole.constFind(reason); known != whole.cend())
        return *known;
    if (reason.startsWith(u"scope:"_s))
        return u"%1 is outside the token's scope: neither its keys nor its categories include it"_s.arg(
            reason.mid(6));
    if (reason.startsWith(u"contract_changed:"_s))
        return u"the row changed since the token was pinned to it; once the change is reviewed, a token "
               "made with --pin again may call it"_s;
    static const QRegularExpression payload(u"^payload_ceiling:(\\d+)>(\\d+)$"_s);
    if (const QRegularExpressionMatch over = payload.match(reason); over.hasMatch())
        return u"the body is %1 bytes, over the token's ceiling of %2"_s.arg(over.captured(1),
                                                                             over.captured(2));
    return {};
}

} // namespace

QString forReason(const QString &reason)
{
    // A missing row is not a refusal, and "key" alone could be read as a signing key's.
    if (reason.startsWith(u"unknown key "_s))
        return u"nothing ran: this directory has no row with the key %1"_s.arg(reason.mid(12));
    const QString line = u"refused, nothing ran: "_s + reason;
    // The code alone: a refusal the event log could not record has that said after it.
    const QString why = meaning(reason.section(u' ', 0, 0));
    return why.isEmpty() ? line : line + u" ("_s + why + u')';
}

} // namespace CtlRefusalNote
