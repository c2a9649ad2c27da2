#include "dispatch/core/textposition.h"
#include "dispatch/json/canonicaljson.h"
#include "dispatch/json/jsonsyntaxcheck.h"
#include "dispatch/json/jsontextcheck.h"
#include "tests/fuzz/fuzzcheck.h"

#include <QJsonArray>
#include <QJsonObject>

// The strict RFC 8259 check and the editor's JSON check over any text: check() and
// isValid() agree; a refusal's position points into the text and matches its line and
// column; strict JSON is a subset of what Qt reads (JsonTextCheck) for objects and arrays
// (numbers beyond the double range aside), its canonical form is strict JSON again, and
// strict validity survives wrapping in an array and surrounding white space.
// JsonTextCheck's positions are checked the same way.
namespace {

void checkPosition(const QString &text, int offset, int line, int column, const QString &message)
{
    FUZZ_CHECK(offset >= 0 && offset <= text.size(),
               QStringLiteral("offset %1 of %2: %3").arg(offset).arg(text.size()).arg(message));
    const TextPosition expected = TextPosition::at(text, offset);
    FUZZ_CHECK(expected.line == line && expected.column == column,
               QStringLiteral("line %1 column %2 at offset %3, expected %4 %5: %6")
                   .arg(line)
                   .arg(column)
                   .arg(offset)
                   .arg(expected.line)
                   .arg(expected.column)
                   .arg(message));
    FUZZ_CHECK(message.startsWith(QStringLiteral("line %1, column %2: ").arg(line).arg(column)), message);
}

// Qt reads a number beyond the double range as an error (RFC 8259 leaves the range to
// implementations); such text is strict JSON that Qt refuses, by design on both sides.
bool qtRefusesItsNumbers(const QString &text)
{
    QJsonParseError error;
    QJsonDocument::fromJson(text.toUtf8(), &error);
    return error.error == QJsonParseError::IllegalNumber;
}

bool isContainer(const QString &text)
{
    const QString trimmed = text.trimmed();
    return trimmed.startsWith(u'{') || trimmed.startsWith(u'[');
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
    const QString text = fuzzText(data, size);
    const JsonSyntaxCheck strict = JsonSyntaxCheck::check(text);
    FUZZ_CHECK(strict.ok == JsonSyntaxCheck::isValid(text), QStringLiteral("check() and isValid() disagree"));
    const JsonTextCheck lenient = JsonTextCheck::parse(text);
    if (!lenient.ok)
        checkPosition(text, lenient.offset, lenient.line, lenient.column, lenient.message);

    if (!strict.ok) {
        checkPosition(text, strict.offset, strict.line, strict.column, strict.message);
        return 0;
    }
    FUZZ_CHECK(JsonSyntaxCheck::isValid(QStringLiteral(" \n\t") + text + QStringLiteral("\r\n ")),
               QStringLiteral("white space around valid JSON"));
    FUZZ_CHECK(JsonSyntaxCheck::isValid(u'[' + text + u']'),
               QStringLiteral("valid JSON as an array element"));
    FUZZ_CHECK(!JsonSyntaxCheck::isValid(text + u'}'), QStringLiteral("a stray '}' after valid JSON"));
    if (!isContainer(text) || qtRefusesItsNumbers(text))
        return 0;
    FUZZ_CHECK(lenient.ok, QStringLiteral("strict JSON that Qt refuses: ") + lenient.message);
    const QByteArray canonical =
        CanonicalJson::serialize(lenient.document.isArray() ? QJsonValue(lenient.document.array())
                                                            : QJsonValue(lenient.document.object()));
    FUZZ_CHECK(JsonSyntaxCheck::isValid(QString::fromUtf8(canonical)), QString::fromUtf8(canonical));
    return 0;
}
