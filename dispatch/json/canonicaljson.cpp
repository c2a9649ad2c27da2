#include "dispatch/json/canonicaljson.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QLocale>
#include <QMetaType>
#include <QStringList>
#include <QVariant>

#include <algorithm>
#include <cmath>
#include <utility>

QByteArray CanonicalJson::serialize(const QJsonValue &value)
{
    QByteArray out;
    write(value, &out);
    return out;
}

void CanonicalJson::write(const QJsonValue &value, QByteArray *out)
{
    switch (value.type()) {
    case QJsonValue::Null:
    case QJsonValue::Undefined:
        out->append("null");
        return;
    case QJsonValue::Bool:
        out->append(value.toBool() ? "true" : "false");
        return;
    case QJsonValue::Double:
        writeNumber(value, out);
        return;
    case QJsonValue::String:
        appendString(value.toString(), out);
        return;
    case QJsonValue::Array: {
        out->append('[');
        bool first = true;
        for (const QJsonValue element : value.toArray()) {
            if (!first)
                out->append(',');
            first = false;
            write(element, out);
        }
        out->append(']');
        return;
    }
    case QJsonValue::Object: {
        const QJsonObject object = value.toObject();
        // Members are taken by iterating, not looked up by key: Qt 6.4's lookup misses a
        // key stored beside one holding U+0000 after a non-BMP character, and answers
        // null for it.
        QList<std::pair<QString, QJsonValue>> members;
        members.reserve(object.size());
        for (auto it = object.begin(); it != object.end(); ++it)
            members.append({it.key(), it.value()});
        // QString's operator< compares UTF-16 code units, which is the documented order;
        // QJsonObject's own key order is not relied on.
        std::sort(members.begin(), members.end(),
                  [](const auto &a, const auto &b) { return a.first < b.first; });
        out->append('{');
        bool first = true;
        for (const auto &[key, member] : std::as_const(members)) {
            if (!first)
                out->append(',');
            first = false;
            appendString(key, out);
            out->append(':');
            write(member, out);
        }
        out->append('}');
        return;
    }
    }
}

void CanonicalJson::appendString(const QString &text, QByteArray *out)
{
    static const char hexDigits[] = "0123456789abcdef";
    // toUtf8 writes a lone surrogate as '?' (see the class comment).
    const QByteArray utf8 = text.toUtf8();
    out->append('"');
    // Runs that need no escape are copied whole: content is mostly such runs.
    qsizetype runStart = 0;
    for (qsizetype i = 0; i < utf8.size(); ++i) {
        const auto byte = static_cast<unsigned char>(utf8.at(i));
        if (byte >= 0x20 && byte != '"' && byte != '\\')
            continue;
        out->append(utf8.constData() + runStart, i - runStart);
        runStart = i + 1;
        switch (byte) {
        case '"':
            out->append("\\\"");
            break;
        case '\\':
            out->append("\\\\");
            break;
        case '\b':
            out->append("\\b");
            break;
        case '\f':
            out->append("\\f");
            break;
        case '\n':
            out->append("\\n");
            break;
        case '\r':
            out->append("\\r");
            break;
        case '\t':
            out->append("\\t");
            break;
        default:
            out->append("\\u00");
            out->append(hexDigits[byte >> 4]);
            out->append(hexDigits[byte & 0xf]);
        }
    }
    out->append(utf8.constData() + runStart, utf8.size() - runStart);
    out->append('"');
}

void CanonicalJson::writeNumber(const QJsonValue &value, QByteArray *out)
{
    // Qt's parser keeps a number that fits in 64 bits as an integer; the variant says so
    // and keeps integers above 2^53 exact.
    const QVariant variant = value.toVariant();
    if (variant.typeId() == QMetaType::LongLong) {
        out->append(QByteArray::number(variant.toLongLong()));
        return;
    }
    const double d = value.toDouble();
    if (!std::isfinite(d)) {
        out->append("null");
        return;
    }
    // 2^63 itself does not fit in qint64, so the range check is strict on the upper side;
    // -0.0 passes and converts to 0.
    constexpr double twoTo63 = 9223372036854775808.0;
    if (d == std::trunc(d) && d >= -twoTo63 && d < twoTo63) {
        out->append(QByteArray::number(static_cast<qint64>(d)));
        return;
    }
    out->append(QByteArray::number(d, 'g', QLocale::FloatingPointShortest));
}
