#include "dispatch/runners/builtins/textbuiltins.h"

#include "dispatch/core/outputlimit.h"
#include "dispatch/runners/builtins/builtinregistry.h"
#include "dispatch/templates/templatesubstitution.h"

#include <QRegularExpression>

using namespace Qt::StringLiterals;

namespace {

// All args joined with '|', so a payload of ["$1+"] or ["$1","$2"] gives back the body
// it was called with.
QString echo(const BuiltinCall &call)
{
    return call.args.join(u'|');
}

QString upper(const BuiltinCall &call)
{
    return call.arg(0).toUpper();
}

QString lower(const BuiltinCall &call)
{
    return call.arg(0).toLower();
}

QString trim(const BuiltinCall &call)
{
    return call.arg(0).trimmed();
}

// Unicode code points, not UTF-16 units, so "😀" is one character as a reader counts it.
QString length(const BuiltinCall &call)
{
    return QString::number(call.arg(0).toUcs4().size());
}

QString concat(const BuiltinCall &call)
{
    return call.args.join(QString());
}

// How many matches a long loop handles between looks at the cancel flag.
constexpr int cancelCheckEvery = 4096;

// Replacing n occurrences with m characters each grows the text by n×m: the size is known
// from the count before anything is built, so a replacement over the byte cap is refused
// without allocating it, and a long text is given up on as soon as the call is cancelled.
QString replace(const BuiltinCall &call)
{
    const QString from = call.arg(1);
    // Replacing the empty string would insert the replacement between every character,
    // which is never what a row author meant.
    if (from.isEmpty())
        return u"ERR: replace: the text to replace is empty"_s;
    const QString text = call.arg(0);
    const QString to = call.arg(2);
    qint64 count = 0;
    for (qsizetype at = text.indexOf(from); at >= 0; at = text.indexOf(from, at + from.size())) {
        if (++count % cancelCheckEvery == 0 && call.isCancelled())
            return u"ERR: cancelled"_s;
    }
    const qint64 units = text.size() + count * (to.size() - from.size());
    if (!OutputLimit::mayFit(units, call.limits.maxOutputBytes))
        return OutputLimit::error(u"replace's result"_s, call.limits.maxOutputBytes);
    QString out;
    out.reserve(units);
    qsizetype copied = 0;
    for (qsizetype at = text.indexOf(from); at >= 0; at = text.indexOf(from, copied)) {
        if (--count % cancelCheckEvery == 0 && call.isCancelled())
            return u"ERR: cancelled"_s;
        out.append(QStringView(text).mid(copied, at - copied));
        out.append(to);
        copied = at + from.size();
    }
    out.append(QStringView(text).mid(copied));
    return out;
}

// PCRE2 cannot be interrupted once a match runs, so what a match may cost is bounded by
// refusing long patterns and subjects before compiling.
QString regexExtract(const BuiltinCall &call)
{
    if (call.arg(1).size() > call.limits.maxRegexPatternChars) {
        return u"ERR: regex_extract: pattern_limit: the pattern is %1 characters, more than the %2 allowed"_s
            .arg(call.arg(1).size())
            .arg(call.limits.maxRegexPatternChars);
    }
    if (call.arg(0).size() > call.limits.maxRegexSubjectChars) {
        return u"ERR: regex_extract: subject_limit: the text is %1 characters, more than the %2 allowed"_s
            .arg(call.arg(0).size())
            .arg(call.limits.maxRegexSubjectChars);
    }
    const QRegularExpression pattern(call.arg(1));
    if (!pattern.isValid()) {
        return u"ERR: regex_extract: bad pattern: %1 at offset %2"_s.arg(pattern.errorString())
            .arg(pattern.patternErrorOffset());
    }
    const QRegularExpressionMatch match = pattern.match(call.arg(0));
    if (!match.hasMatch())
        return u"ERR: regex_extract: no match"_s;
    return match.captured(pattern.captureCount() >= 1 ? 1 : 0);
}

// The text of the last complete [REPLY]…[/REPLY], trimmed: an agent may reason in earlier
// pairs and put its answer last, and a dangling "[REPLY]" after it was never finished.
QString lastReplyOf(const BuiltinCall &call)
{
    const QString text = call.arg(0);
    const QString open = u"[REPLY]"_s;
    const qsizetype close = text.lastIndexOf(u"[/REPLY]");
    const qsizetype start = close < 0 ? -1 : QStringView(text).left(close).lastIndexOf(open);
    if (start < 0)
        return u"ERR: no reply"_s;
    const qsizetype from = start + open.size();
    return text.mid(from, close - from).trimmed();
}

QString urlEncode(const BuiltinCall &call)
{
    return TemplateSubstitution::encodeUriComponent(call.arg(0));
}

QString base64(const BuiltinCall &call)
{
    return QString::fromLatin1(call.arg(0).toUtf8().toBase64());
}

} // namespace

void registerTextBuiltins(BuiltinRegistry &registry)
{
    registry.add(u"echo"_s, echo, u"All args joined with '|'"_s);
    registry.add(u"upper"_s, upper, u"Arg 1 in upper case"_s);
    registry.add(u"lower"_s, lower, u"Arg 1 in lower case"_s);
    registry.add(u"trim"_s, trim, u"Arg 1 without leading and trailing white space"_s);
    registry.add(u"length"_s, length, u"Number of characters (code points) of arg 1"_s);
    registry.add(u"concat"_s, concat, u"All args joined with no separator"_s);
    registry.add(u"replace"_s, replace, u"text, from, to: every occurrence of from replaced by to"_s);
    registry.add(u"regex_extract"_s, regexExtract,
                 u"text, pattern: the first capture group, or the whole match when there is none"_s);
    registry.add(u"last_reply_of"_s, lastReplyOf, u"Text of the last [REPLY]…[/REPLY] in arg 1"_s);
    registry.add(u"url_encode"_s, urlEncode, u"Arg 1 percent-encoded as encodeURIComponent does"_s);
    registry.add(u"base64"_s, base64, u"Standard padded base64 of arg 1's UTF-8 bytes"_s);
}
