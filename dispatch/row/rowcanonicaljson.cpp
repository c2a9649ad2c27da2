#include "dispatch/row/rowcanonicaljson.h"

#include "dispatch/json/canonicaljson.h"
#include "dispatch/row/rowschema.h"

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
            CanonicalJson::appendString(value.toString(), &out);
        else
            out.append(QByteArray::number(value.toLongLong()));
    }
    out.append('}');
    return out;
}
