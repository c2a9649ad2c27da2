#include "dispatch/row/argumentspec.h"

#include "dispatch/row/doclines.h"
#include "dispatch/row/row.h"
#include "dispatch/templates/templatesubstitution.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

#include <algorithm>

namespace {

// Splits an ARGS text on '|' outside parentheses: DIR_PATCH's "(… may contain |)" is one
// entry's description, not a third entry. Each entry is trimmed.
QList<QStringView> splitEntries(QStringView text)
{
    QList<QStringView> entries;
    qsizetype start = 0;
    int depth = 0;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text[i];
        if (c == u'(')
            ++depth;
        else if (c == u')' && depth > 0)
            --depth;
        else if (c == u'|' && depth == 0) {
            entries.append(text.mid(start, i - start).trimmed());
            start = i + 1;
        }
    }
    entries.append(text.mid(start).trimmed());
    return entries;
}

// The ARGS line is read for every row the linter sees, so its entries are matched by hand
// rather than by regular expression. The matchers accept exactly what these patterns
// (PCRE2, without Unicode properties) accept; `$` also matches before a final "\n":
//   dollar:     ^\$(\d+)(\+)?\s*(?:[=:]\s*(.*))?$   (. matches newlines)
//   positional: ^[A-Za-z_][A-Za-z0-9_]*(\s*\(.*\))?$
//   nothing:    ^(none|nothing|no args?|-|n/a)\.?$   (case-insensitive)
bool isDigit(QChar c)
{
    return c >= u'0' && c <= u'9';
}

bool isWordStart(QChar c)
{
    return (c >= u'A' && c <= u'Z') || (c >= u'a' && c <= u'z') || c == u'_';
}

// PCRE2's \s without Unicode properties: ASCII white space only.
bool isPatternSpace(QChar c)
{
    return c == u' ' || (c >= u'\t' && c <= u'\r');
}

qsizetype skipSpaces(QStringView text, qsizetype i)
{
    while (i < text.size() && isPatternSpace(text[i]))
        ++i;
    return i;
}

// Whether `$` matches at `i`: the end, or just before a final newline.
bool atEnd(QStringView text, qsizetype i)
{
    return i == text.size() || (i == text.size() - 1 && text[i] == u'\n');
}

struct DollarEntry
{
    int index = 0; // 0 when the digits do not make a positive int
    bool takesRest = false;
    QStringView note; // after "=" or ":", null when there is none
};

std::optional<DollarEntry> matchDollar(QStringView entry)
{
    if (entry.isEmpty() || entry[0] != u'$')
        return std::nullopt;
    qsizetype i = 1;
    while (i < entry.size() && isDigit(entry[i]))
        ++i;
    if (i == 1)
        return std::nullopt;
    DollarEntry match;
    match.index = entry.mid(1, i - 1).toInt();
    if (i < entry.size() && entry[i] == u'+') {
        match.takesRest = true;
        ++i;
    }
    i = skipSpaces(entry, i);
    if (i == entry.size())
        return match;
    if (entry[i] != u'=' && entry[i] != u':')
        return std::nullopt;
    const qsizetype note = skipSpaces(entry, i + 1);
    match.note = entry.mid(note);
    return match;
}

bool isPositional(QStringView entry)
{
    if (entry.isEmpty() || !isWordStart(entry[0]))
        return false;
    qsizetype i = 1;
    while (i < entry.size() && (isWordStart(entry[i]) || isDigit(entry[i])))
        ++i;
    if (atEnd(entry, i))
        return true;
    const qsizetype open = skipSpaces(entry, i);
    if (open == entry.size() || entry[open] != u'(')
        return false;
    // ")" then the end; the note between the parentheses holds no newline (. stops at one).
    qsizetype close = entry.size() - 1;
    if (close > open && entry[close] == u'\n')
        --close;
    if (close <= open || entry[close] != u')' || !atEnd(entry, close + 1))
        return false;
    return !entry.mid(open + 1, close - open - 1).contains(u'\n');
}

bool saysNothing(QStringView text)
{
    static const QRegularExpression nothing(QStringLiteral(R"(^(none|nothing|no args?|-|n/a)\.?$)"),
                                            QRegularExpression::CaseInsensitiveOption);
    // The longest match, "no args.\n", has 9 characters: longer text needs no regex.
    return text.size() <= 9 && nothing.match(text).hasMatch();
}

// "date (YYYY-MM-DD)" → name "date", description "YYYY-MM-DD".
void splitNameAndNote(QStringView text, ArgumentSlot &slot)
{
    const qsizetype open = text.indexOf(u'(');
    if (open > 0 && text.endsWith(u')')) {
        slot.name = text.left(open).trimmed().toString();
        slot.description = text.mid(open + 1, text.size() - open - 2).trimmed().toString();
    } else {
        slot.name = text.trimmed().toString();
    }
}

// The member names of the top-level "properties" object, in the order written: JSON
// Schema authors order them as the body's args, and QJsonObject would sort them.
QStringList propertyOrder(QStringView json)
{
    QStringList names;
    QStringList keyAtDepth; // the member name that opened each nesting level
    int depth = 0;
    QString lastString;
    for (qsizetype i = 0; i < json.size(); ++i) {
        const QChar c = json[i];
        if (c == u'"') {
            QString text;
            for (++i; i < json.size() && json[i] != u'"'; ++i) {
                if (json[i] == u'\\')
                    ++i;
                else
                    text.append(json[i]);
            }
            lastString = text;
            qsizetype next = i + 1;
            while (next < json.size() && json[next].isSpace())
                ++next;
            if (next < json.size() && json[next] == u':' && depth == 2
                && keyAtDepth.value(1) == QLatin1String("properties"))
                names.append(text);
            continue;
        }
        if (c == u'{' || c == u'[') {
            ++depth;
            keyAtDepth.resize(depth);
            keyAtDepth[depth - 1] = lastString;
            lastString.clear();
        } else if (c == u'}' || c == u']') {
            depth = std::max(0, depth - 1);
            keyAtDepth.resize(depth);
        } else if (c == u',') {
            lastString.clear();
        }
    }
    return names;
}

} // namespace

bool ArgumentSlot::operator==(const ArgumentSlot &other) const
{
    return index == other.index && name == other.name && description == other.description
           && takesRest == other.takesRest && required == other.required;
}

ArgumentSpec ArgumentSpec::fromRow(const Row &row)
{
    bool usable = false;
    ArgumentSpec spec = fromArgsLine(DocLines::parse(row.content).args(), &usable);
    if (usable)
        return spec;
    spec = fromInputSchema(row.inputSchema);
    if (!spec.isEmpty())
        return spec;
    return fromPlaceholders(row);
}

ArgumentSpec ArgumentSpec::fromArgsLine(const QString &text, bool *usable)
{
    ArgumentSpec spec;
    if (usable)
        *usable = false;
    const QStringView trimmed = QStringView(text).trimmed();
    if (trimmed.isEmpty())
        return spec;
    if (saysNothing(trimmed)) {
        spec.m_source = Source::ArgsLine;
        if (usable)
            *usable = true;
        return spec;
    }

    const QList<QStringView> entries = splitEntries(trimmed);
    QList<DollarEntry> dollars;
    for (const QStringView entry : entries) {
        const std::optional<DollarEntry> match = matchDollar(entry);
        if (!match || match->index <= 0)
            break;
        dollars.append(*match);
    }
    QList<ArgumentSlot> found;
    if (dollars.size() == entries.size()) {
        for (const DollarEntry &dollar : std::as_const(dollars)) {
            ArgumentSlot slot;
            slot.index = dollar.index;
            slot.takesRest = dollar.takesRest;
            splitNameAndNote(dollar.note, slot);
            found.append(slot);
        }
    } else if (std::all_of(entries.cbegin(), entries.cend(), isPositional)) {
        for (qsizetype i = 0; i < entries.size(); ++i) {
            ArgumentSlot slot;
            slot.index = int(i + 1);
            splitNameAndNote(entries[i], slot);
            found.append(slot);
        }
    } else {
        return spec; // free text: says something to a reader, declares nothing
    }
    spec.m_arguments = normalised(found);
    spec.m_source = Source::ArgsLine;
    if (usable)
        *usable = true;
    return spec;
}

ArgumentSpec ArgumentSpec::fromInputSchema(const QString &schemaText)
{
    ArgumentSpec spec;
    const QJsonObject schema = QJsonDocument::fromJson(schemaText.toUtf8()).object();
    const QJsonObject properties = schema.value(QStringLiteral("properties")).toObject();
    if (properties.isEmpty())
        return spec;
    const QJsonArray required = schema.value(QStringLiteral("required")).toArray();
    QList<ArgumentSlot> found;
    for (const QString &name : propertyOrder(schemaText)) {
        if (!properties.contains(name)
            || std::any_of(found.cbegin(), found.cend(),
                           [&name](const ArgumentSlot &s) { return s.name == name; }))
            continue;
        ArgumentSlot slot;
        slot.index = int(found.size() + 1);
        slot.name = name;
        slot.description = properties.value(name).toObject().value(QStringLiteral("description")).toString();
        slot.required = required.contains(QJsonValue(name));
        found.append(slot);
    }
    spec.m_arguments = found;
    spec.m_source = Source::InputSchema;
    return spec;
}

ArgumentSpec ArgumentSpec::fromPlaceholders(const Row &row)
{
    ArgumentSpec spec;
    QString payload = DocLines::stripDocs(row.content);
    // An fn row with no payload passes ["$1"] (SPEC §3).
    if (row.type == QLatin1String("fn") && payload.trimmed().isEmpty())
        payload = QStringLiteral("[\"$1\"]");
    const QString templates = (row.type == QLatin1String("http") ? row.target + u'\n' : QString()) + payload;
    int highest = 0;
    bool rest = false;
    for (const TemplatePlaceholder &placeholder : TemplateSubstitution::placeholders(templates)) {
        if (placeholder.kind != TemplatePlaceholder::Kind::Arg
            && placeholder.kind != TemplatePlaceholder::Kind::ArgRest)
            continue;
        if (placeholder.index > highest) {
            highest = placeholder.index;
            rest = false;
        }
        if (placeholder.index == highest && placeholder.kind == TemplatePlaceholder::Kind::ArgRest)
            rest = true;
    }
    QList<ArgumentSlot> found;
    for (int i = 1; i <= highest; ++i)
        found.append({i, QStringLiteral("$%1").arg(i), {}, rest && i == highest, false});
    spec.m_arguments = found;
    spec.m_source = highest > 0 ? Source::Placeholders : Source::None;
    return spec;
}

QList<ArgumentSlot> ArgumentSpec::normalised(QList<ArgumentSlot> found)
{
    std::stable_sort(found.begin(), found.end(),
                     [](const ArgumentSlot &a, const ArgumentSlot &b) { return a.index < b.index; });
    QList<ArgumentSlot> result;
    for (const ArgumentSlot &slot : found) {
        if (!result.isEmpty() && result.last().index == slot.index)
            continue;
        for (int gap = result.isEmpty() ? 1 : result.last().index + 1; gap < slot.index; ++gap)
            result.append({gap, QStringLiteral("$%1").arg(gap), {}, false, false});
        ArgumentSlot named = slot;
        if (named.name.isEmpty())
            named.name = QStringLiteral("$%1").arg(slot.index);
        result.append(named);
    }
    // Only the last argument can take the rest of the body.
    for (qsizetype i = 0; i + 1 < result.size(); ++i)
        result[i].takesRest = false;
    return result;
}

bool ArgumentSpec::lastTakesRest() const
{
    return !m_arguments.isEmpty() && m_arguments.last().takesRest;
}

QString ArgumentSpec::joinBody(const QStringList &values) const
{
    // Trailing empty args are left off: a missing arg is empty too (SPEC §2), so the body
    // means the same and reads as typed ("37.77", not "37.77|").
    qsizetype count = values.size();
    while (count > 1 && values[count - 1].isEmpty())
        --count;
    return values.mid(0, count).join(u'|');
}

QStringList ArgumentSpec::splitBody(const QString &body) const
{
    QStringList pieces = body.split(u'|');
    const qsizetype wanted = std::max<qsizetype>(1, m_arguments.size());
    if (pieces.size() > wanted) {
        const QString rest = pieces.mid(wanted - 1).join(u'|');
        pieces = pieces.mid(0, wanted - 1);
        pieces.append(rest);
    }
    while (pieces.size() < m_arguments.size())
        pieces.append(QString());
    return pieces;
}

QList<ArgumentSlot> ArgumentSpec::emptyIn(const QString &body) const
{
    const QStringList values = splitBody(body);
    QList<ArgumentSlot> empty;
    for (qsizetype i = 0; i < m_arguments.size(); ++i) {
        if (values.value(i).trimmed().isEmpty())
            empty.append(m_arguments[i]);
    }
    return empty;
}

QList<int> ArgumentSpec::misplacedPipes(const QStringList &values) const
{
    QList<int> misplaced;
    for (qsizetype i = 0; i < values.size(); ++i) {
        const bool isLast = i + 1 == values.size();
        if (values[i].contains(u'|') && !(isLast && lastTakesRest()))
            misplaced.append(int(i));
    }
    return misplaced;
}

bool ArgumentSpec::operator==(const ArgumentSpec &other) const
{
    return m_source == other.m_source && m_arguments == other.m_arguments;
}
