#include "dispatch/json/jsonsyntaxcheck.h"

#include "dispatch/core/textposition.h"

namespace {

// Far deeper than any payload, and shallow enough that the recursion below stays a few
// hundred kilobytes of stack at most.
constexpr int MaxDepth = 512;

class Parser final
{
public:
    explicit Parser(QStringView text) : m_text(text) {}

    bool parseDocument()
    {
        skipSpace();
        if (!parseValue(0))
            return false;
        skipSpace();
        return atEnd() || fail("text after the JSON value");
    }

    qsizetype errorOffset() const { return m_pos; }
    const char *reason() const { return m_reason; }

private:
    bool atEnd() const { return m_pos >= m_text.size(); }
    char16_t peek() const { return atEnd() ? u'\0' : m_text[m_pos].unicode(); }

    bool fail(const char *reason)
    {
        m_reason = reason;
        return false;
    }

    void skipSpace()
    {
        while (!atEnd()) {
            const char16_t c = peek();
            if (c != u' ' && c != u'\t' && c != u'\n' && c != u'\r')
                return;
            ++m_pos;
        }
    }

    bool parseValue(int depth)
    {
        if (atEnd())
            return fail("unexpected end of text");
        switch (peek()) {
        case u'{':
            return parseObject(depth + 1);
        case u'[':
            return parseArray(depth + 1);
        case u'"':
            return parseString();
        case u't':
            return parseWord(u"true");
        case u'f':
            return parseWord(u"false");
        case u'n':
            return parseWord(u"null");
        default:
            if (peek() == u'-' || isDigit(peek()))
                return parseNumber();
            return fail("expected a value");
        }
    }

    bool parseObject(int depth)
    {
        if (depth > MaxDepth)
            return fail("nested more than 512 levels deep");
        ++m_pos;
        skipSpace();
        if (peek() == u'}') {
            ++m_pos;
            return true;
        }
        for (;;) {
            if (peek() != u'"')
                return fail(atEnd() ? "unexpected end of text" : "expected a string as the member name");
            if (!parseString())
                return false;
            skipSpace();
            if (peek() != u':')
                return fail("expected ':'");
            ++m_pos;
            skipSpace();
            if (!parseValue(depth))
                return false;
            skipSpace();
            if (peek() == u'}') {
                ++m_pos;
                return true;
            }
            if (peek() != u',')
                return fail("expected ',' or '}'");
            ++m_pos;
            skipSpace();
        }
    }

    bool parseArray(int depth)
    {
        if (depth > MaxDepth)
            return fail("nested more than 512 levels deep");
        ++m_pos;
        skipSpace();
        if (peek() == u']') {
            ++m_pos;
            return true;
        }
        for (;;) {
            if (!parseValue(depth))
                return false;
            skipSpace();
            if (peek() == u']') {
                ++m_pos;
                return true;
            }
            if (peek() != u',')
                return fail("expected ',' or ']'");
            ++m_pos;
            skipSpace();
        }
    }

    bool parseString()
    {
        ++m_pos; // the opening quote
        for (;;) {
            if (atEnd())
                return fail("unterminated string");
            const char16_t c = peek();
            if (c == u'"') {
                ++m_pos;
                return true;
            }
            if (c < 0x20)
                return fail("unescaped control character in a string");
            if (c != u'\\')
                ++m_pos;
            else if (!parseEscape())
                return false;
        }
    }

    bool parseEscape()
    {
        ++m_pos; // the backslash
        switch (peek()) {
        case u'"':
        case u'\\':
        case u'/':
        case u'b':
        case u'f':
        case u'n':
        case u'r':
        case u't':
            ++m_pos;
            return true;
        case u'u':
            ++m_pos;
            for (int i = 0; i < 4; ++i, ++m_pos) {
                if (!isHexDigit(peek()))
                    return fail("\\u needs four hex digits");
            }
            return true;
        default:
            return fail(atEnd() ? "unterminated string" : "invalid escape sequence");
        }
    }

    bool parseNumber()
    {
        if (peek() == u'-')
            ++m_pos;
        if (peek() == u'0') {
            ++m_pos;
        } else if (isDigit(peek())) {
            skipDigits();
        } else {
            return fail("invalid number");
        }
        if (peek() == u'.') {
            ++m_pos;
            if (!isDigit(peek()))
                return fail("invalid number");
            skipDigits();
        }
        if (peek() == u'e' || peek() == u'E') {
            ++m_pos;
            if (peek() == u'+' || peek() == u'-')
                ++m_pos;
            if (!isDigit(peek()))
                return fail("invalid number");
            skipDigits();
        }
        return true;
    }

    bool parseWord(QStringView word)
    {
        if (!m_text.mid(m_pos).startsWith(word))
            return fail("expected a value");
        m_pos += word.size();
        return true;
    }

    void skipDigits()
    {
        while (isDigit(peek()))
            ++m_pos;
    }

    static bool isDigit(char16_t c) { return c >= u'0' && c <= u'9'; }
    static bool isHexDigit(char16_t c)
    {
        return isDigit(c) || (c >= u'a' && c <= u'f') || (c >= u'A' && c <= u'F');
    }

    QStringView m_text;
    qsizetype m_pos = 0;
    const char *m_reason = nullptr;
};

} // namespace

JsonSyntaxCheck JsonSyntaxCheck::check(QStringView text)
{
    JsonSyntaxCheck check;
    Parser parser(text);
    if (parser.parseDocument())
        return check;

    const TextPosition position = TextPosition::at(text, parser.errorOffset());
    check.ok = false;
    check.offset = position.offset;
    check.line = position.line;
    check.column = position.column;
    check.message = position.describe(QLatin1String(parser.reason()));
    return check;
}

bool JsonSyntaxCheck::isValid(QStringView text)
{
    return Parser(text).parseDocument();
}
