#include "dispatch/templates/templatesubstitution.h"

#include "dispatch/core/outputlimit.h"
#include "dispatch/json/jsonsyntaxcheck.h"

#include <limits>

namespace {

using Kind = TemplatePlaceholder::Kind;

// A placeholder found by scan(); the name stays a view so apply() allocates nothing for it.
struct Token
{
    Kind kind = Kind::Arg;
    bool raw = false;
    int index = 0;
    QStringView name;
    qsizetype start = 0;
    qsizetype length = 0;
};

constexpr bool isDigit(char16_t c)
{
    return c >= u'0' && c <= u'9';
}

bool isNameStart(char16_t c)
{
    return (c >= u'A' && c <= u'Z') || c == u'_';
}

bool isNameChar(char16_t c)
{
    return isNameStart(c) || isDigit(c);
}

// The part after "$" or "$$"; returns its length, 0 when it is no placeholder.
qsizetype scanBody(QStringView tmpl, qsizetype at, Token *token)
{
    const qsizetype end = tmpl.size();
    if (at >= end)
        return 0;
    qsizetype pos = at;
    if (isDigit(tmpl[pos].unicode())) {
        // Saturating: an index past INT_MAX is past every arg list, which is all it must say.
        qint64 value = 0;
        for (; pos < end && isDigit(tmpl[pos].unicode()); ++pos)
            value =
                std::min<qint64>(value * 10 + (tmpl[pos].unicode() - u'0'), std::numeric_limits<int>::max());
        if (value == 0)
            return 0;
        token->index = int(value);
        token->kind = Kind::Arg;
        if (pos < end && tmpl[pos] == u'+') {
            token->kind = Kind::ArgRest;
            ++pos;
        }
        return pos - at;
    }
    if (isNameStart(tmpl[pos].unicode())) {
        for (++pos; pos < end && isNameChar(tmpl[pos].unicode()); ++pos) {
        }
        token->name = tmpl.mid(at, pos - at);
        token->kind = token->name == u"PREV" ? Kind::Prev : Kind::Name;
        return pos - at;
    }
    return 0;
}

// The one scanner behind apply() and placeholders(): is there a placeholder at tmpl[at],
// which must be '$'?
bool scan(QStringView tmpl, qsizetype at, Token *token)
{
    *token = Token();
    token->start = at;
    if (at + 1 < tmpl.size() && tmpl[at + 1] == u'$') {
        if (const qsizetype length = scanBody(tmpl, at + 2, token)) {
            token->raw = true;
            token->length = length + 2;
            return true;
        }
    }
    token->length = scanBody(tmpl, at + 1, token) + 1;
    return token->length > 1;
}

// encodeURIComponent's unreserved set.
constexpr bool isUriUnreserved(char16_t c)
{
    return (c >= u'A' && c <= u'Z') || (c >= u'a' && c <= u'z') || isDigit(c) || c == u'-' || c == u'_'
           || c == u'.' || c == u'!' || c == u'~' || c == u'*' || c == u'\'' || c == u'(' || c == u')';
}

void appendUriComponent(QString &out, QStringView value)
{
    static constexpr char16_t hex[] = u"0123456789ABCDEF";
    const qsizetype size = value.size();
    qsizetype run = 0;
    for (qsizetype i = 0; i < size;) {
        const char16_t c = value[i].unicode();
        if (c < 0x80 && isUriUnreserved(c)) {
            ++i;
            continue;
        }
        out.append(value.mid(run, i - run));
        char32_t code = c;
        if (QChar::isHighSurrogate(c) && i + 1 < size && QChar::isLowSurrogate(value[i + 1].unicode())) {
            code = QChar::surrogateToUcs4(c, value[i + 1].unicode());
            i += 2;
        } else {
            if (QChar::isSurrogate(c))
                code = 0xFFFD;
            ++i;
        }
        unsigned char bytes[4];
        int count = 0;
        if (code < 0x80) {
            bytes[count++] = static_cast<unsigned char>(code);
        } else if (code < 0x800) {
            bytes[count++] = static_cast<unsigned char>(0xC0 | (code >> 6));
            bytes[count++] = static_cast<unsigned char>(0x80 | (code & 0x3F));
        } else if (code < 0x10000) {
            bytes[count++] = static_cast<unsigned char>(0xE0 | (code >> 12));
            bytes[count++] = static_cast<unsigned char>(0x80 | ((code >> 6) & 0x3F));
            bytes[count++] = static_cast<unsigned char>(0x80 | (code & 0x3F));
        } else {
            bytes[count++] = static_cast<unsigned char>(0xF0 | (code >> 18));
            bytes[count++] = static_cast<unsigned char>(0x80 | ((code >> 12) & 0x3F));
            bytes[count++] = static_cast<unsigned char>(0x80 | ((code >> 6) & 0x3F));
            bytes[count++] = static_cast<unsigned char>(0x80 | (code & 0x3F));
        }
        QChar encoded[12];
        for (int b = 0; b < count; ++b) {
            encoded[3 * b] = u'%';
            encoded[3 * b + 1] = hex[bytes[b] >> 4];
            encoded[3 * b + 2] = hex[bytes[b] & 0xF];
        }
        out.append(encoded, 3 * count);
        run = i;
    }
    out.append(value.mid(run));
}

void appendJsonStringContent(QString &out, QStringView value)
{
    static constexpr char16_t hex[] = u"0123456789abcdef";
    const qsizetype size = value.size();
    qsizetype run = 0;
    for (qsizetype i = 0; i < size; ++i) {
        const char16_t c = value[i].unicode();
        if (c >= 0x20 && c != u'"' && c != u'\\' && !QChar::isSurrogate(c))
            continue;
        if (QChar::isHighSurrogate(c) && i + 1 < size && QChar::isLowSurrogate(value[i + 1].unicode())) {
            ++i;
            continue;
        }
        out.append(value.mid(run, i - run));
        run = i + 1;
        char16_t shortForm = 0;
        switch (c) {
        case u'"':
            shortForm = u'"';
            break;
        case u'\\':
            shortForm = u'\\';
            break;
        case u'\b':
            shortForm = u'b';
            break;
        case u'\f':
            shortForm = u'f';
            break;
        case u'\n':
            shortForm = u'n';
            break;
        case u'\r':
            shortForm = u'r';
            break;
        case u'\t':
            shortForm = u't';
            break;
        default:
            break;
        }
        if (shortForm) {
            const QChar escaped[] = {u'\\', shortForm};
            out.append(escaped, 2);
        } else {
            const QChar escaped[] = {
                u'\\', u'u', hex[c >> 12], hex[(c >> 8) & 0xF], hex[(c >> 4) & 0xF], hex[c & 0xF]};
            out.append(escaped, 6);
        }
    }
    out.append(value.mid(run));
}

// Writes one template's output; the JSON position is the caller's, per placeholder.
class Writer final
{
public:
    Writer(QStringView tmpl, const TemplateContext &ctx, TemplateMode mode, qint64 maxBytes, QString &out)
        : m_tmpl(tmpl), m_ctx(ctx), m_mode(mode), m_maxBytes(maxBytes), m_out(out)
    {}

    // Once set, nothing more is written: the output would pass the cap.
    bool overflowed() const { return m_overflowed; }

    // Template text between placeholders.
    void copy(QStringView text)
    {
        if (fits(text.size()))
            m_out.append(text);
    }

    void insert(const Token &token, bool inJsonString)
    {
        const QStringList &args = m_ctx.args;
        switch (token.kind) {
        case Kind::Arg:
            appendValue(token.index <= args.size() ? QStringView(args[token.index - 1]) : QStringView(),
                        token.raw, inJsonString);
            return;
        case Kind::ArgRest:
            insertRest(token, inJsonString);
            return;
        case Kind::Prev:
            if (m_ctx.prev)
                appendValue(*m_ctx.prev, token.raw, inJsonString);
            else
                copy(m_tmpl.mid(token.start, token.length));
            return;
        case Kind::Name: {
            // A non-owning QString: the lookup must not allocate (QHash in Qt 6.4 takes no view).
            const auto it =
                m_ctx.bindings.constFind(QString::fromRawData(token.name.data(), token.name.size()));
            if (it != m_ctx.bindings.cend())
                appendValue(*it, token.raw, inJsonString);
            else
                copy(m_tmpl.mid(token.start, token.length));
            return;
        }
        }
    }

private:
    void insertRest(const Token &token, bool inJsonString)
    {
        const QStringList &args = m_ctx.args;
        if (token.index > args.size()) {
            appendValue(QStringView(), token.raw, inJsonString);
            return;
        }
        // Outside a JSON string the joined text is judged as a whole, so it must exist as one.
        if (m_mode == TemplateMode::Json && !inJsonString && !token.raw) {
            appendValue(args.mid(token.index - 1).join(u'|'), false, false);
            return;
        }
        for (qsizetype i = token.index - 1; i < args.size(); ++i) {
            if (i > token.index - 1)
                appendValue(u"|", token.raw, inJsonString);
            appendValue(args[i], token.raw, inJsonString);
        }
    }

    // Escaping never shortens a value and a UTF-16 unit is at least one UTF-8 byte, so a
    // value whose raw length already passes the cap is refused before it is escaped.
    bool fits(qsizetype units)
    {
        if (!m_overflowed && !OutputLimit::mayFit(qint64(m_out.size()) + units, m_maxBytes))
            m_overflowed = true;
        return !m_overflowed;
    }

    void appendValue(QStringView value, bool raw, bool inJsonString)
    {
        if (!fits(value.size()))
            return;
        // Valid JSON is copied like raw text, but for its own reason: kept as its own branch
        // so the order of the tests reads as the rule.
        // NOLINTNEXTLINE(bugprone-branch-clone)
        if (raw || m_mode == TemplateMode::Raw) {
            m_out.append(value);
        } else if (m_mode == TemplateMode::Url) {
            appendUriComponent(m_out, value);
        } else if (inJsonString) {
            appendJsonStringContent(m_out, value);
        } else if (JsonSyntaxCheck::isValid(value)) {
            m_out.append(value);
        } else {
            m_out.append(u'"');
            appendJsonStringContent(m_out, value);
            m_out.append(u'"');
        }
    }

    QStringView m_tmpl;
    const TemplateContext &m_ctx;
    TemplateMode m_mode;
    qint64 m_maxBytes;
    QString &m_out;
    bool m_overflowed = false;
};

TemplateResult overLimit(qint64 maxBytes)
{
    return {{}, OutputLimit::error(QStringLiteral("the substituted text"), maxBytes)};
}

} // namespace

TemplateResult TemplateSubstitution::apply(QStringView tmpl, const TemplateContext &ctx, TemplateMode mode,
                                           qint64 maxBytes)
{
    TemplateResult result;
    QString &out = result.text;
    qsizetype valueSize = 0;
    for (const QString &arg : ctx.args)
        valueSize += arg.size();
    out.reserve(qMin<qint64>(maxBytes, tmpl.size() + (mode == TemplateMode::Url ? 3 : 1) * valueSize) + 8);

    Writer writer(tmpl, ctx, mode, maxBytes, out);
    Token token;
    qsizetype copied = 0; // template text before this offset is in the output already

    if (mode != TemplateMode::Json) {
        for (qsizetype at = tmpl.indexOf(u'$'); at >= 0 && !writer.overflowed();
             at = tmpl.indexOf(u'$', at)) {
            if (!scan(tmpl, at, &token)) {
                ++at;
                continue;
            }
            writer.copy(tmpl.mid(copied, at - copied));
            writer.insert(token, false);
            at += token.length;
            copied = at;
        }
        writer.copy(tmpl.mid(copied));
        if (writer.overflowed() || OutputLimit::utf8Size(out) > maxBytes)
            return overLimit(maxBytes);
        return result;
    }

    // Whether a placeholder sits inside a string literal is read off the template, not the
    // output, so a value can never change how later placeholders are escaped. A placeholder
    // right after a backslash still counts; the backslash then escapes the value's first
    // character, and the final check decides whether that is valid.
    bool inString = false;
    bool escaped = false;
    for (qsizetype at = 0; at < tmpl.size() && !writer.overflowed(); ++at) {
        const char16_t c = tmpl[at].unicode();
        if (c == u'$' && scan(tmpl, at, &token)) {
            writer.copy(tmpl.mid(copied, at - copied));
            writer.insert(token, inString);
            at += token.length - 1;
            copied = at + 1;
            escaped = false;
        } else if (escaped) {
            escaped = false;
        } else if (c == u'\\') {
            escaped = inString;
        } else if (c == u'"') {
            inString = !inString;
        }
    }
    writer.copy(tmpl.mid(copied));
    if (writer.overflowed() || OutputLimit::utf8Size(out) > maxBytes)
        return overLimit(maxBytes);

    if (!JsonSyntaxCheck::isValid(out)) {
        result.error = QStringLiteral("ERR: template: payload is not valid JSON after substitution: ")
                       + JsonSyntaxCheck::check(out).message;
    }
    return result;
}

QList<TemplatePlaceholder> TemplateSubstitution::placeholders(QStringView tmpl)
{
    QList<TemplatePlaceholder> found;
    Token token;
    for (qsizetype at = tmpl.indexOf(u'$'); at >= 0; at = tmpl.indexOf(u'$', at)) {
        if (!scan(tmpl, at, &token)) {
            ++at;
            continue;
        }
        TemplatePlaceholder placeholder;
        placeholder.kind = token.kind;
        placeholder.raw = token.raw;
        placeholder.index = token.index;
        placeholder.name = token.name.toString();
        placeholder.start = token.start;
        placeholder.length = token.length;
        found.append(placeholder);
        at += token.length;
    }
    return found;
}

TemplateMode TemplateSubstitution::modeForPayload(QStringView payload)
{
    for (const QChar c : payload) {
        if (c.isSpace())
            continue;
        return c == u'{' || c == u'[' ? TemplateMode::Json : TemplateMode::Raw;
    }
    return TemplateMode::Raw;
}

QString TemplateSubstitution::encodeUriComponent(QStringView value)
{
    QString out;
    out.reserve(value.size());
    appendUriComponent(out, value);
    return out;
}

QString TemplateSubstitution::escapeJsonString(QStringView value)
{
    QString out;
    out.reserve(value.size());
    appendJsonStringContent(out, value);
    return out;
}
