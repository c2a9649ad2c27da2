#include "dispatch/row/doclines.h"

#include <QVarLengthArray>

namespace {

struct TagPrefix
{
    QStringView prefix;
    DocLine::Tag tag;
};

constexpr TagPrefix tagPrefixes[] = {
    {u"WHAT:", DocLine::Tag::What},     {u"WHEN_TO_USE:", DocLine::Tag::WhenToUse},
    {u"ARGS:", DocLine::Tag::Args},     {u"EX:", DocLine::Tag::Example},
    {u"OUTPUT:", DocLine::Tag::Output},
};

bool isBlank(QStringView text)
{
    for (const QChar c : text) {
        if (!c.isSpace())
            return false;
    }
    return true;
}

// A payload line, with the terminator that followed it in the content.
struct KeptLine
{
    QStringView text;
    QStringView terminator;
};

} // namespace

bool DocLines::isDocLine(QStringView line)
{
    for (const QChar c : line) {
        if (!c.isSpace())
            return c == u'#';
    }
    return false;
}

QString DocLines::walk(QStringView content, QList<DocLine> *docs)
{
    QVarLengthArray<KeptLine, 16> kept;
    if (docs)
        docs->reserve(16); // a documented row has about ten doc lines
    bool previousWasDoc = false;
    int number = 0;
    for (qsizetype start = 0; start <= content.size();) {
        ++number;
        qsizetype end = content.indexOf(u'\n', start);
        const qsizetype next = end < 0 ? content.size() + 1 : end + 1;
        if (end < 0)
            end = content.size();
        qsizetype textEnd = end;
        if (textEnd > start && content[textEnd - 1] == u'\r' && end < content.size())
            --textEnd;
        const QStringView line = content.mid(start, textEnd - start);
        const QStringView terminator = content.mid(textEnd, std::min(next, content.size()) - textEnd);
        start = next;

        if (!isDocLine(line)) {
            kept.append({line, terminator});
            previousWasDoc = false;
            continue;
        }
        if (!docs)
            continue;

        const QStringView afterHash = line.mid(line.indexOf(u'#') + 1);
        qsizetype blanks = 0;
        while (blanks < afterHash.size() && (afterHash[blanks] == u' ' || afterHash[blanks] == u'\t'))
            ++blanks;
        const QStringView rest = afterHash.mid(blanks);

        DocLine doc;
        doc.line = number;
        for (const TagPrefix &tag : tagPrefixes) {
            // Most doc lines are free text: comparing first characters rules the tags out.
            if (!rest.isEmpty() && rest.front() == tag.prefix.front() && rest.startsWith(tag.prefix)) {
                doc.tag = tag.tag;
                doc.text = rest.mid(tag.prefix.size()).trimmed().toString();
                break;
            }
        }
        if (doc.tag == DocLine::Tag::None) {
            const QStringView text = rest.trimmed();
            if (blanks >= 2 && previousWasDoc) {
                QString &continued = docs->last().text;
                if (!continued.isEmpty() && !text.isEmpty())
                    continued.append(u' ');
                continued.append(text);
                continue;
            }
            doc.text = text.toString();
        }
        docs->append(std::move(doc));
        previousWasDoc = true;
    }

    qsizetype first = 0;
    qsizetype last = kept.size() - 1;
    while (first <= last && isBlank(kept[first].text))
        ++first;
    while (last >= first && isBlank(kept[last].text))
        --last;
    if (first > last)
        return QString();
    // Every row's payload is built here, so it is sized once; usually the kept lines are
    // one stretch of the content and the payload is that stretch.
    const QChar *const begin = kept[first].text.data();
    const QChar *const end = kept[last].text.data() + kept[last].text.size();
    qsizetype size = kept[last].text.size();
    for (qsizetype i = first; i < last; ++i)
        size += kept[i].text.size() + kept[i].terminator.size();
    if (size == end - begin)
        return QStringView(begin, end).toString();
    QString payload;
    payload.reserve(size);
    for (qsizetype i = first; i <= last; ++i) {
        payload.append(kept[i].text);
        if (i < last)
            payload.append(kept[i].terminator);
    }
    return payload;
}

QString DocLines::stripDocs(const QString &content)
{
    return walk(content, nullptr);
}

DocLines DocLines::parse(const QString &content)
{
    DocLines parsed;
    parsed.m_payload = walk(content, &parsed.m_lines);
    return parsed;
}

std::optional<DocExample> DocLines::parseExample(QStringView text)
{
    text = text.trimmed();
    if (!text.startsWith(u'['))
        return std::nullopt;
    const qsizetype keyEnd = text.indexOf(u']');
    if (keyEnd < 2)
        return std::nullopt;
    const QStringView key = text.mid(1, keyEnd - 1);
    for (const QChar c : key) {
        if (c == u'[' || c == u'/' || c.isSpace())
            return std::nullopt;
    }
    // "[/" + key + "]" must end the text and must not overlap the opening "[KEY]".
    const qsizetype closeStart = text.size() - key.size() - 3;
    if (closeStart <= keyEnd || !text.endsWith(u']') || text.mid(closeStart, 2) != u"[/"
        || text.mid(closeStart + 2, key.size()) != key)
        return std::nullopt;
    return DocExample{key.toString(), text.mid(keyEnd + 1, closeStart - keyEnd - 1).toString()};
}

QList<DocLine> DocLines::tagged(DocLine::Tag tag) const
{
    QList<DocLine> found;
    for (const DocLine &doc : m_lines) {
        if (doc.tag == tag)
            found.append(doc);
    }
    return found;
}

std::optional<DocLine> DocLines::first(DocLine::Tag tag) const
{
    for (const DocLine &doc : m_lines) {
        if (doc.tag == tag)
            return doc;
    }
    return std::nullopt;
}

std::optional<DocLine> DocLines::descriptionLine() const
{
    if (std::optional<DocLine> what = first(DocLine::Tag::What))
        return what;
    for (const DocLine &doc : m_lines) {
        if (!doc.text.isEmpty())
            return doc.tag == DocLine::Tag::None ? std::optional<DocLine>(doc) : std::nullopt;
    }
    return std::nullopt;
}

QString DocLines::description() const
{
    const std::optional<DocLine> doc = descriptionLine();
    return doc ? doc->text : QString();
}

QString DocLines::whenToUse() const
{
    const std::optional<DocLine> doc = first(DocLine::Tag::WhenToUse);
    return doc ? doc->text : QString();
}

QString DocLines::args() const
{
    const std::optional<DocLine> doc = first(DocLine::Tag::Args);
    return doc ? doc->text : QString();
}

QStringList DocLines::examples() const
{
    QStringList texts;
    for (const DocLine &doc : m_lines) {
        if (doc.tag == DocLine::Tag::Example)
            texts.append(doc.text);
    }
    return texts;
}

QString DocLines::output() const
{
    const std::optional<DocLine> doc = first(DocLine::Tag::Output);
    return doc ? doc->text : QString();
}

QList<DocLine> DocLines::otherLines() const
{
    const std::optional<DocLine> description = descriptionLine();
    QList<DocLine> others;
    for (const DocLine &doc : m_lines) {
        if (doc.tag == DocLine::Tag::None && !(description && description->line == doc.line))
            others.append(doc);
    }
    return others;
}
