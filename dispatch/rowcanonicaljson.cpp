#include "rowcanonicaljson.h"

#include "rowschema.h"

#include <QList>

#include <algorithm>
#include <utility>

namespace {

// The columns in CanonicalJson's member order, each with its `"name":` prefix.
const QList<std::pair<QString, QByteArray>> &sortedColumns()
{
    static const QList<std::pair<QString, QByteArray>> columns = [] {
        QStringList names = RowSchema::columns();
        std::sort(names.begin(), names.end());
        QList<std::pair<QString, QByteArray>> sorted;
        for (const QString &name : std::as_const(names))
            sorted.append({name, '"' + name.toUtf8() + "\":"});
        return sorted;
    }();
    return columns;
}

} // namespace

QByteArray RowCanonicalJson::serialize(const Row &row)
{
    QByteArray out;
    out.reserve(row.content.size() + row.inputSchema.size() + row.examples.size() + 512);
    char separator = '{';
    for (const auto &[column, prefix] : sortedColumns()) {
        out.append(separator);
        separator = ',';
        out.append(prefix);
        const QVariant value = row.value(column);
        if (value.isNull())
            out.append("null");
        else if (value.typeId() == QMetaType::QString)
            appendString(value.toString(), &out);
        else
            out.append(QByteArray::number(value.toLongLong()));
    }
    out.append('}');
    return out;
}

void RowCanonicalJson::appendString(const QString &text, QByteArray *out)
{
    static const char hexDigits[] = "0123456789abcdef";
    // toUtf8 writes a lone surrogate as '?', as CanonicalJson does.
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
