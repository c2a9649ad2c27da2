#include "dispatch/store/sqliterowscan.h"

#include "dispatch/row/rowschema.h"

#include <QByteArray>
#include <QVariant>

#include <sqlite3.h>

#include <vector>

namespace SqliteRowScan {

namespace {

QString text(sqlite3_stmt *statement, int column)
{
    const auto *bytes = reinterpret_cast<const char *>(sqlite3_column_text(statement, column));
    // Never null for a value, even an empty one: NULL is told apart before this.
    return QString::fromUtf8(bytes ? bytes : "", sqlite3_column_bytes(statement, column));
}

// What QtSql's SQLite driver hands over for the cell, so Row::setValue judges an integer
// column's value exactly as it does for a value from QSqlQuery.
QVariant cell(sqlite3_stmt *statement, int column)
{
    switch (sqlite3_column_type(statement, column)) {
    case SQLITE_NULL:
        return {};
    case SQLITE_INTEGER:
        return QVariant(qint64(sqlite3_column_int64(statement, column)));
    case SQLITE_FLOAT:
        return QVariant(sqlite3_column_double(statement, column));
    case SQLITE_BLOB:
        return QVariant(QByteArray(static_cast<const char *>(sqlite3_column_blob(statement, column)),
                                   sqlite3_column_bytes(statement, column)));
    default:
        return QVariant(text(statement, column));
    }
}

} // namespace

int read(sqlite3_stmt *statement, const std::function<bool(Row &&row)> &each)
{
    const QStringList &names = RowSchema::columns();
    std::vector<Row::TextMember> members;
    members.reserve(std::size_t(names.size()));
    for (const QString &name : names)
        members.push_back(Row::textMember(name));
    int step = SQLITE_ROW;
    while ((step = sqlite3_step(statement)) == SQLITE_ROW) {
        Row row;
        for (int i = 0; i < int(members.size()); ++i) {
            // Text stored in a text column, or an integer a legacy file put there, is
            // taken as its text; a text member left alone stays NULL.
            if (members[std::size_t(i)]) {
                if (sqlite3_column_type(statement, i) != SQLITE_NULL)
                    row.*members[std::size_t(i)] = text(statement, i);
            } else {
                row.setValue(names[i], cell(statement, i));
            }
        }
        if (!each(std::move(row)))
            return step;
    }
    return step;
}

} // namespace SqliteRowScan
