#include "dispatch/json/canonicaljson.h"
#include "dispatch/json/jsonsyntaxcheck.h"
#include "tests/fuzz/fuzzcheck.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <cmath>
#include <utility>

// CanonicalJson over every document Qt reads from the input: the canonical bytes are
// strict JSON, read back to the same value (numbers
// by their double, strings by their UTF-8), and are a fixed point (canonicalising them
// again gives the same bytes). Object members come out in UTF-16 key order.
namespace {

QJsonValue root(const QJsonDocument &document)
{
    return document.isArray() ? QJsonValue(document.array()) : QJsonValue(document.object());
}

bool sameNumber(double a, double b)
{
    return a == b || (std::isnan(a) && std::isnan(b));
}

// An object's entries, walked rather than looked up by key (Qt 6.4's QJsonObject::value()
// misses some keys, see CanonicalJson::write), then sorted: Qt's own order can differ
// between two objects with the same keys read from differently ordered text.
QList<std::pair<QString, QJsonValue>> entriesByKey(const QJsonObject &object)
{
    QList<std::pair<QString, QJsonValue>> entries;
    for (auto it = object.begin(); it != object.end(); ++it)
        entries.append({it.key(), it.value()});
    std::sort(entries.begin(), entries.end(),
              [](const auto &left, const auto &right) { return left.first < right.first; });
    return entries;
}

// What the canonical form promises to keep: structure, strings as their UTF-8 bytes
// (a lone surrogate becomes '?'), numbers as their double value.
bool sameValue(const QJsonValue &a, const QJsonValue &b)
{
    if (a.isDouble() && b.isDouble())
        return sameNumber(a.toDouble(), b.toDouble());
    if (a.type() != b.type())
        return false;
    switch (a.type()) {
    case QJsonValue::String:
        return a.toString().toUtf8() == b.toString().toUtf8();
    case QJsonValue::Array: {
        const QJsonArray left = a.toArray();
        const QJsonArray right = b.toArray();
        if (left.size() != right.size())
            return false;
        for (qsizetype i = 0; i < left.size(); ++i) {
            if (!sameValue(left[i], right[i]))
                return false;
        }
        return true;
    }
    case QJsonValue::Object: {
        const QList<std::pair<QString, QJsonValue>> left = entriesByKey(a.toObject());
        const QList<std::pair<QString, QJsonValue>> right = entriesByKey(b.toObject());
        if (left.size() != right.size())
            return false;
        for (qsizetype i = 0; i < left.size(); ++i) {
            if (left[i].first != right[i].first || !sameValue(left[i].second, right[i].second))
                return false;
        }
        return true;
    }
    default:
        return a == b;
    }
}

bool hasNulInKey(const QJsonValue &value)
{
    if (value.isArray()) {
        for (const QJsonValue &item : value.toArray()) {
            if (hasNulInKey(item))
                return true;
        }
        return false;
    }
    if (!value.isObject())
        return false;
    const QJsonObject object = value.toObject();
    for (auto it = object.begin(); it != object.end(); ++it) {
        if (it.key().contains(QChar(u'\0')) || hasNulInKey(it.value()))
            return true;
    }
    return false;
}

bool hasLoneSurrogate(const QJsonValue &value)
{
    const auto textHas = [](const QString &text) {
        for (qsizetype i = 0; i < text.size(); ++i) {
            if (text[i].isHighSurrogate() && i + 1 < text.size() && text[i + 1].isLowSurrogate())
                ++i;
            else if (text[i].isSurrogate())
                return true;
        }
        return false;
    };
    if (value.isString())
        return textHas(value.toString());
    if (value.isArray()) {
        for (const QJsonValue &element : value.toArray()) {
            if (hasLoneSurrogate(element))
                return true;
        }
    }
    if (value.isObject()) {
        const QJsonObject object = value.toObject();
        for (auto it = object.begin(); it != object.end(); ++it) {
            if (textHas(it.key()) || hasLoneSurrogate(it.value()))
                return true;
        }
    }
    return false;
}

void checkKeyOrder(const QJsonValue &value)
{
    if (value.isArray()) {
        for (const QJsonValue &element : value.toArray())
            checkKeyOrder(element);
    }
    if (!value.isObject())
        return;
    const QJsonObject object = value.toObject();
    const QByteArray canonical = CanonicalJson::serialize(value);
    qsizetype at = 0;
    const QStringList keys = object.keys();
    QStringList sorted = keys;
    std::sort(sorted.begin(), sorted.end(), [](const QString &a, const QString &b) {
        return std::lexicographical_compare(a.utf16(), a.utf16() + a.size(), b.utf16(), b.utf16() + b.size());
    });
    for (const QString &key : sorted) {
        QByteArray member;
        CanonicalJson::appendString(key, &member);
        member += ':';
        const qsizetype found = canonical.indexOf(member, at);
        FUZZ_CHECK(found >= 0, QStringLiteral("member %1 missing or out of UTF-16 order").arg(key));
        at = found + member.size();
        checkKeyOrder(object.value(key));
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
    QJsonParseError error;
    const QJsonDocument document =
        QJsonDocument::fromJson(QByteArray(reinterpret_cast<const char *>(data), qsizetype(size)), &error);
    if (error.error != QJsonParseError::NoError)
        return 0;
    const QJsonValue value = root(document);
    const QByteArray canonical = CanonicalJson::serialize(value);
    const QString canonicalText = QString::fromUtf8(canonical);
    FUZZ_CHECK(JsonSyntaxCheck::isValid(canonicalText), canonicalText);

    QJsonParseError again;
    const QJsonDocument reread = QJsonDocument::fromJson(canonical, &again);
    FUZZ_CHECK(again.error == QJsonParseError::NoError, again.errorString() + u' ' + canonicalText);
    const QJsonValue rereadValue = root(reread);
    // A lone surrogate is written as '?' (canonicaljson.h), so two keys that differ only
    // there come out as one name twice, and reading that back keeps one of them.
    if (hasLoneSurrogate(value))
        return 0;
    FUZZ_CHECK(CanonicalJson::serialize(rereadValue) == canonical,
               QStringLiteral("not a fixed point: ") + canonicalText + QStringLiteral(" became ")
                   + QString::fromUtf8(CanonicalJson::serialize(rereadValue)));
    // Qt 6.4 misorders and misreads object keys holding U+0000 (see CanonicalJson::write),
    // so for those only the fixed point above is checked.
    if (!hasNulInKey(value))
        FUZZ_CHECK(sameValue(value, rereadValue), QStringLiteral("the value changed: ") + canonicalText);
    checkKeyOrder(value);
    return 0;
}
