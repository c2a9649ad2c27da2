#include "dispatch/store/qtsqlrowscan.h"

#include "dispatch/row/rowschema.h"

#include <QSqlError>

namespace QtSqlRowScan {

QString columns()
{
    return RowSchema::columns().join(QStringLiteral(", "));
}

Row rowAt(const QSqlQuery &query)
{
    Row row;
    const QStringList &names = RowSchema::columns();
    for (int i = 0; i < names.size(); ++i) {
        // Text a legacy file stored in an INTEGER column, or the reverse, is taken as it
        // comes rather than refusing the whole row.
        QVariant value = query.value(i);
        if (!RowSchema::isIntegerColumn(names[i]) && !value.isNull())
            value = value.toString();
        row.setValue(names[i], value);
    }
    return row;
}

bool read(QSqlQuery &query, const std::function<bool(Row &&row)> &each)
{
    while (query.next()) {
        if (!each(rowAt(query)))
            return true;
    }
    return !query.lastError().isValid();
}

} // namespace QtSqlRowScan
