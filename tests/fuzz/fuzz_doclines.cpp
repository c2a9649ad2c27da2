#include "dispatch/row/doclines.h"
#include "tests/fuzz/fuzzcheck.h"

// DocLines over any content: the payload is exactly the content's non-doc lines, in order,
// without leading and trailing blank lines (checked against a plain split on '\n');
// stripping is idempotent and agrees with parse(); every doc line found points at a doc
// line of the content; an example's key and body put back together give its text.
namespace {

bool isBlank(QStringView text)
{
    return text.trimmed().isEmpty();
}

QString expectedPayload(const QStringList &pieces)
{
    qsizetype first = -1;
    qsizetype last = -1;
    QList<qsizetype> kept;
    for (qsizetype i = 0; i < pieces.size(); ++i) {
        if (!DocLines::isDocLine(pieces[i]))
            kept.append(i);
    }
    for (qsizetype k = 0; k < kept.size(); ++k) {
        if (!isBlank(pieces[kept[k]])) {
            if (first < 0)
                first = k;
            last = k;
        }
    }
    if (first < 0)
        return QString();
    QStringList lines;
    for (qsizetype k = first; k <= last; ++k)
        lines.append(pieces[kept[k]]);
    QString payload = lines.join(u'\n');
    // A "\r\n" terminator belongs to the line before it, and the last kept line loses it.
    if (kept[last] < pieces.size() - 1 && payload.endsWith(u'\r'))
        payload.chop(1);
    return payload;
}

void checkExample(const QString &text)
{
    const std::optional<DocExample> example = DocLines::parseExample(text);
    if (!example)
        return;
    FUZZ_CHECK(!example->key.isEmpty(), text);
    FUZZ_CHECK(!example->key.contains(u'/') && !example->key.contains(u'['), example->key);
    const QString rebuilt =
        u'[' + example->key + u']' + example->body + QStringLiteral("[/") + example->key + u']';
    FUZZ_CHECK(rebuilt == text.trimmed(),
               QStringLiteral("[%1]%2[/%1] is not %3").arg(example->key, example->body, text));
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
    const QString content = fuzzText(data, size);
    const QStringList pieces = content.split(u'\n');
    const DocLines docs = DocLines::parse(content);
    const QString payload = DocLines::stripDocs(content);

    FUZZ_CHECK(payload == docs.payload(), QStringLiteral("stripDocs and parse disagree"));
    FUZZ_CHECK(payload == expectedPayload(pieces), QStringLiteral("payload is not the non-doc lines"));
    FUZZ_CHECK(DocLines::stripDocs(payload) == payload,
               QStringLiteral("stripping twice changes the payload"));

    int lastLine = 0;
    for (const DocLine &doc : docs.lines()) {
        FUZZ_CHECK(doc.line > lastLine && doc.line <= pieces.size(), QString::number(doc.line));
        FUZZ_CHECK(DocLines::isDocLine(pieces[doc.line - 1]), pieces[doc.line - 1]);
        FUZZ_CHECK(!doc.text.contains(u'\n'), doc.text);
        FUZZ_CHECK(doc.text == doc.text.trimmed(), doc.text);
        lastLine = doc.line;
        if (doc.tag == DocLine::Tag::Example)
            checkExample(doc.text);
    }
    checkExample(content);
    for (const DocLine::Tag tag : {DocLine::Tag::None, DocLine::Tag::What, DocLine::Tag::WhenToUse,
                                   DocLine::Tag::Args, DocLine::Tag::Example, DocLine::Tag::Output}) {
        for (const DocLine &doc : docs.tagged(tag))
            FUZZ_CHECK(doc.tag == tag, doc.text);
        const std::optional<DocLine> first = docs.first(tag);
        FUZZ_CHECK(first.has_value() == !docs.tagged(tag).isEmpty(),
                   QStringLiteral("first() and tagged() disagree"));
    }
    const std::optional<DocLine> description = docs.descriptionLine();
    FUZZ_CHECK(!description || description->text == docs.description(), docs.description());
    FUZZ_CHECK(docs.examples().size() == docs.tagged(DocLine::Tag::Example).size(),
               QStringLiteral("examples lost"));
    return 0;
}
