#include "views/editor/contenthighlighter.h"

#include "views/common/themecolors.h"

#include <QColor>
#include <QFont>

namespace {

bool isNameStart(QChar c)
{
    return (c >= u'A' && c <= u'Z') || c == u'_';
}

bool isNameChar(QChar c)
{
    return isNameStart(c) || (c >= u'0' && c <= u'9');
}

bool isDigit(QChar c)
{
    return c >= u'0' && c <= u'9';
}

// The doc-line tags SPEC §2 names; anything else after `#` is plain documentation.
constexpr QStringView kTags[] = {u"WHAT", u"WHEN_TO_USE", u"ARGS", u"EX", u"OUTPUT"};

void addDocSpans(QStringView line, int hash, QList<ContentHighlighter::Span> &spans)
{
    spans.append({hash, int(line.size()) - hash, ContentHighlighter::Kind::DocLine});
    int tag = hash + 1;
    while (tag < line.size() && line[tag].isSpace())
        ++tag;
    for (QStringView name : kTags) {
        const QStringView rest = line.mid(tag);
        if (rest.startsWith(name) && rest.mid(name.size()).startsWith(u':')) {
            spans.append({tag, int(name.size()) + 1, ContentHighlighter::Kind::DocTag});
            return;
        }
    }
}

// Scans left to right like the engine's subVars: `$$` marks the unescaped form, then a
// number (N ≥ 1, optional `+`) or a name. A `$` that starts none of these is literal.
void addPlaceholderSpans(QStringView line, QList<ContentHighlighter::Span> &spans)
{
    using Kind = ContentHighlighter::Kind;
    const int n = int(line.size());
    int i = 0;
    while (i < n) {
        if (line[i] != u'$') {
            ++i;
            continue;
        }
        const int start = i;
        int j = i + 1;
        const bool unescaped = j < n && line[j] == u'$';
        if (unescaped)
            ++j;
        int end = j;
        Kind kind = Kind::Arg;
        if (j < n && isDigit(line[j])) {
            bool positive = false;
            for (; end < n && isDigit(line[end]); ++end)
                positive = positive || line[end] != u'0';
            if (!positive) {
                i = start + 1;
                continue;
            }
            const bool rest = end < n && line[end] == u'+';
            if (rest)
                ++end;
            kind = rest ? Kind::ArgRest : Kind::Arg;
        } else if (j < n && isNameStart(line[j])) {
            while (end < n && isNameChar(line[end]))
                ++end;
            kind = line.mid(j, end - j) == u"PREV" ? Kind::Prev : Kind::Name;
        } else {
            i = start + 1;
            continue;
        }
        spans.append({start, end - start, unescaped ? Kind::Unescaped : kind});
        i = end;
    }
}

} // namespace

ContentHighlighter::ContentHighlighter(QTextDocument *document) : QSyntaxHighlighter(document) {}

QList<ContentHighlighter::Span> ContentHighlighter::spans(QStringView line)
{
    QList<Span> result;
    int first = 0;
    while (first < line.size() && line[first].isSpace())
        ++first;
    if (first < line.size() && line[first] == u'#')
        addDocSpans(line, first, result);
    else
        addPlaceholderSpans(line, result);
    return result;
}

QTextCharFormat ContentHighlighter::format(Kind kind)
{
    QTextCharFormat format;
    switch (kind) {
    case Kind::DocLine:
        format.setForeground(ThemeColors::text(QColor(0x5f, 0x73, 0x68)));
        format.setFontItalic(true);
        break;
    case Kind::DocTag:
        format.setForeground(ThemeColors::text(QColor(0x2e, 0x6b, 0x4a)));
        format.setFontItalic(true);
        format.setFontWeight(QFont::Bold);
        break;
    case Kind::Arg:
        format.setForeground(ThemeColors::text(QColor(0x1f, 0x5f, 0xc8)));
        format.setFontWeight(QFont::Bold);
        break;
    case Kind::ArgRest:
        format.setForeground(ThemeColors::text(QColor(0x82, 0x50, 0xdf)));
        format.setFontWeight(QFont::Bold);
        break;
    case Kind::Unescaped:
        format.setForeground(ThemeColors::text(QColor(0xbc, 0x4c, 0x00)));
        format.setFontWeight(QFont::Bold);
        break;
    case Kind::Prev:
        format.setForeground(ThemeColors::text(QColor(0x0a, 0x7e, 0x74)));
        format.setFontWeight(QFont::Bold);
        break;
    case Kind::Name:
        format.setForeground(ThemeColors::text(QColor(0xc0, 0x26, 0x4f)));
        format.setFontWeight(QFont::Bold);
        break;
    }
    return format;
}

void ContentHighlighter::highlightBlock(const QString &text)
{
    for (const Span &span : spans(text))
        setFormat(span.start, span.length, format(span.kind));
}
