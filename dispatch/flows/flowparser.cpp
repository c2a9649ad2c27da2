#include "dispatch/flows/flowparser.h"

#include "dispatch/row/doclines.h"

#include <QVarLengthArray>

#include <utility>

using namespace Qt::StringLiterals;

namespace {

struct Range
{
    qsizetype begin = 0;
    qsizetype end = 0;

    bool isEmpty() const { return begin >= end; }
};

bool isKeyChar(QChar c)
{
    return (c >= u'A' && c <= u'Z') || (c >= u'0' && c <= u'9') || c == u'_';
}

// The characters of SPEC §8's H001 without its length limit, which the linter reports;
// requiring the capital first letter keeps "https:" or "12:30" in a branch body from
// starting a branch.
bool isKey(QStringView text)
{
    if (text.isEmpty() || !(text[0] >= u'A' && text[0] <= u'Z'))
        return false;
    for (const QChar c : text) {
        if (!isKeyChar(c))
            return false;
    }
    return true;
}

// Calls visit(offset, depth) for every character outside double-quoted strings, `depth`
// being the number of {} and [] around it (the brackets themselves count as outside).
// "\>" is skipped as a whole: it is never a separator. Stops when visit returns false.
// Unbalanced text is tolerated here; checkStructure() reports it first.
template<typename Visit>
void scanStructure(QStringView text, Range range, Visit visit)
{
    int depth = 0;
    bool quoted = false;
    for (qsizetype i = range.begin; i < range.end; ++i) {
        const QChar c = text[i];
        if (quoted) {
            if (c == u'\\')
                ++i;
            else if (c == u'"')
                quoted = false;
            continue;
        }
        if (c == u'\\' && i + 1 < range.end && text[i + 1] == u'>') {
            ++i;
            continue;
        }
        if (c == u'"') {
            quoted = true;
            continue;
        }
        if (c == u'}' || c == u']')
            --depth;
        if (!visit(i, depth))
            return;
        if (c == u'{' || c == u'[')
            ++depth;
    }
}

bool isArrowEnd(QStringView text, qsizetype offset)
{
    return text[offset] == u'>' && offset > 0 && text[offset - 1] == u'=';
}

// `|` followed by blanks, a key, blanks and ':'.
bool startsBranch(QStringView text, qsizetype offset, qsizetype end)
{
    qsizetype i = offset + 1;
    while (i < end && text[i].isSpace())
        ++i;
    const qsizetype keyStart = i;
    while (i < end && isKeyChar(text[i]))
        ++i;
    if (!isKey(text.mid(keyStart, i - keyStart)))
        return false;
    while (i < end && (text[i] == u' ' || text[i] == u'\t'))
        ++i;
    return i < end && text[i] == u':';
}

// The body as the steps will see it: "\>" outside strings read as '>'.
QString unescapeArrows(QStringView body)
{
    if (!body.contains(u"\\>"))
        return body.toString();
    QString result;
    result.reserve(body.size());
    bool quoted = false;
    for (qsizetype i = 0; i < body.size(); ++i) {
        const QChar c = body[i];
        if (quoted && c == u'\\' && i + 1 < body.size()) {
            result.append(c).append(body[++i]);
            continue;
        }
        if (c == u'"')
            quoted = !quoted;
        if (!quoted && c == u'\\' && i + 1 < body.size() && body[i + 1] == u'>')
            continue;
        result.append(c);
    }
    return result;
}

// The flow text with doc lines left out, and where each kept line came from in the
// content, so positions are reported in the text the author sees.
class KeptText
{
public:
    explicit KeptText(QStringView content) : m_content(content)
    {
        if (!content.contains(u'#')) {
            m_view = content;
            return;
        }
        for (qsizetype start = 0; start < content.size();) {
            qsizetype end = content.indexOf(u'\n', start);
            end = end < 0 ? content.size() : end + 1;
            const QStringView line = content.mid(start, end - start);
            if (!DocLines::isDocLine(line)) {
                m_lines.append({m_kept.size(), start});
                m_kept.append(line);
            }
            start = end;
        }
        m_view = m_kept;
    }

    QStringView text() const { return m_view; }

    TextPosition position(qsizetype offset) const
    {
        qsizetype original = offset;
        for (auto it = m_lines.crbegin(); it != m_lines.crend(); ++it) {
            if (it->first <= offset) {
                original = it->second + (offset - it->first);
                break;
            }
        }
        return TextPosition::at(m_content, original);
    }

private:
    QStringView m_content;
    QString m_kept;
    QStringView m_view;
    QVarLengthArray<std::pair<qsizetype, qsizetype>, 8> m_lines; // (offset kept, offset in content)
};

class Reader
{
public:
    explicit Reader(QStringView content) : m_source(content), m_text(m_source.text()) {}

    FlowParseResult read()
    {
        FlowParseResult result;
        if (checkStructure())
            readSteps(result.plan);
        if (m_error) {
            result.plan = {};
            result.error = m_error;
        }
        return result;
    }

private:
    Range trimmed(Range range) const
    {
        while (range.begin < range.end && m_text[range.begin].isSpace())
            ++range.begin;
        while (range.end > range.begin && m_text[range.end - 1].isSpace())
            --range.end;
        return range;
    }

    QStringView view(Range range) const { return m_text.mid(range.begin, range.end - range.begin); }

    bool fail(qsizetype offset, const QString &reason)
    {
        if (!m_error)
            m_error = FlowParseError{m_source.position(offset), reason};
        return false;
    }

    // Brackets pair up and strings end, so later scans may trust the nesting.
    bool checkStructure()
    {
        QVarLengthArray<qsizetype, 16> open;
        qsizetype quoteStart = -1;
        for (qsizetype i = 0; i < m_text.size(); ++i) {
            const QChar c = m_text[i];
            if (quoteStart >= 0) {
                if (c == u'\\')
                    ++i;
                else if (c == u'"')
                    quoteStart = -1;
                continue;
            }
            if (c == u'"') {
                quoteStart = i;
            } else if (c == u'{' || c == u'[') {
                open.append(i);
            } else if (c == u'}' || c == u']') {
                const QChar opener = c == u'}' ? u'{' : u'[';
                if (open.isEmpty())
                    return fail(i, u"'%1' without a matching '%2'"_s.arg(c, opener));
                if (m_text[open.last()] != opener) {
                    const TextPosition at = m_source.position(open.last());
                    return fail(i, u"'%1' closes the '%2' at line %3, column %4"_s.arg(c, m_text[open.last()])
                                       .arg(at.line)
                                       .arg(at.column));
                }
                open.removeLast();
            }
        }
        if (quoteStart >= 0)
            return fail(quoteStart, u"unterminated string"_s);
        if (!open.isEmpty())
            return fail(open.last(), u"unclosed '%1'"_s.arg(m_text[open.last()]));
        return true;
    }

    void readSteps(FlowPlan &plan)
    {
        if (trimmed({0, m_text.size()}).isEmpty()) {
            fail(0, u"empty flow: expected KEY or KEY: body"_s);
            return;
        }
        QVarLengthArray<qsizetype, 16> separators;
        scanStructure(m_text, {0, m_text.size()}, [&](qsizetype i, int depth) {
            if (depth == 0 && m_text[i] == u'>' && !isArrowEnd(m_text, i))
                separators.append(i);
            return true;
        });
        qsizetype begin = 0;
        for (qsizetype s = 0; s <= separators.size(); ++s) {
            const bool last = s == separators.size();
            const Range range = trimmed({begin, last ? m_text.size() : separators[s]});
            if (range.isEmpty()) {
                fail(last ? separators[s - 1] : separators[s],
                     last ? u"nothing after '>': expected a step"_s : u"empty step before '>'"_s);
                return;
            }
            FlowStep step;
            if (!readStep(range, step))
                return;
            plan.steps.append(std::move(step));
            if (!last)
                begin = separators[s] + 1;
        }
    }

    bool readStep(Range range, FlowStep &step)
    {
        step.position = m_source.position(range.begin);
        if (m_text[range.begin] != u'{') {
            FlowCall call;
            if (!readCall(range, call, u"step"_s))
                return false;
            step.binding = std::exchange(call.binding, QString());
            step.calls.append(std::move(call));
            return true;
        }
        step.fanOut = true;
        const qsizetype close = matchingBrace(range);
        if (!readBranches({range.begin + 1, close}, range.begin, step.calls))
            return false;
        const Range rest = trimmed({close + 1, range.end});
        if (rest.isEmpty())
            return true;
        const QStringView tail = view(rest);
        const QStringView name = tail.startsWith(u"=>") ? tail.mid(2).trimmed() : QStringView();
        if (!FlowParser::isBindingName(name))
            return fail(rest.begin, u"only '=> NAME' may follow a fan-out's '}'"_s);
        step.binding = name.toString();
        return true;
    }

    qsizetype matchingBrace(Range range) const
    {
        qsizetype close = range.end - 1;
        int seen = 0;
        scanStructure(m_text, range, [&](qsizetype i, int depth) {
            if (depth != 0 || ++seen < 2)
                return true;
            close = i;
            return false;
        });
        return close;
    }

    bool readBranches(Range inner, qsizetype brace, QList<FlowCall> &calls)
    {
        if (trimmed(inner).isEmpty())
            return fail(brace, u"empty fan-out: expected { KEY: body | KEY: body }"_s);
        qsizetype begin = inner.begin;
        auto readBranch = [&](qsizetype end) {
            const Range range = trimmed({begin, end});
            FlowCall call;
            if (range.isEmpty())
                return fail(end < inner.end ? end : brace, u"empty branch in the fan-out"_s);
            if (!readCall(range, call, u"branch"_s))
                return false;
            calls.append(std::move(call));
            begin = end + 1;
            return true;
        };
        bool ok = true;
        scanStructure(m_text, inner, [&](qsizetype i, int depth) {
            if (depth == 0 && m_text[i] == u'|' && startsBranch(m_text, i, inner.end))
                ok = readBranch(i);
            return ok;
        });
        return ok && readBranch(inner.end);
    }

    // KEY[: body][ => NAME]; `what` names the construct in messages.
    bool readCall(Range range, FlowCall &call, const QString &what)
    {
        range = withoutBinding(range, call.binding);
        const qsizetype colon = view(range).indexOf(u':');
        const Range key = trimmed({range.begin, colon < 0 ? range.end : range.begin + colon});
        call.position = m_source.position(range.begin);
        if (key.isEmpty())
            return fail(range.begin, u"missing key: a %1 is KEY or KEY: body"_s.arg(what));
        if (!isKey(view(key))) {
            const QString shown = view(key).left(40).toString();
            return fail(key.begin, u"'%1' is not a key: a %2 is KEY or KEY: body"_s.arg(shown, what));
        }
        call.key = view(key).toString();
        if (colon < 0) {
            call.body = u"$PREV"_s;
            call.bodyWritten = false;
        } else {
            call.body = unescapeArrows(view(trimmed({range.begin + colon + 1, range.end})));
        }
        return true;
    }

    // The call without a trailing "=> NAME", which is moved into `binding`.
    Range withoutBinding(Range range, QString &binding) const
    {
        qsizetype arrow = -1;
        scanStructure(m_text, range, [&](qsizetype i, int depth) {
            if (depth == 0 && isArrowEnd(m_text, i))
                arrow = i - 1;
            return true;
        });
        if (arrow < 0)
            return range;
        const QStringView name = view(trimmed({arrow + 2, range.end}));
        if (!FlowParser::isBindingName(name))
            return range;
        binding = name.toString();
        return trimmed({range.begin, arrow});
    }

    KeptText m_source;
    QStringView m_text;
    std::optional<FlowParseError> m_error;
};

} // namespace

QJsonObject FlowParseError::toJson() const
{
    return {
        {u"ok"_s, false}, {u"error"_s, reason}, {u"line"_s, position.line}, {u"column"_s, position.column}};
}

FlowParseResult FlowParser::parse(QStringView content)
{
    return Reader(content).read();
}

bool FlowParser::isBindingName(QStringView text)
{
    if (text.isEmpty() || !((text[0] >= u'A' && text[0] <= u'Z') || text[0] == u'_'))
        return false;
    for (const QChar c : text) {
        if (!((c >= u'A' && c <= u'Z') || (c >= u'0' && c <= u'9') || c == u'_'))
            return false;
    }
    return true;
}
