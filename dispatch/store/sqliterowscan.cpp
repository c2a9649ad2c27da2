#include "dispatch/store/sqliterowscan.h"

#include "dispatch/row/rowschema.h"

#include <QByteArray>
#include <QUtf8StringView>
#include <QVariant>

#include <sqlite3.h>

#include <optional>
#include <vector>

namespace SqliteRowScan {

namespace {

// A TEXT cell as QtSql's SQLite driver decodes it; nullopt when SQLite ran out of memory.
std::optional<QString> storedText(sqlite3_stmt *statement, int column)
{
    const auto *bytes = reinterpret_cast<const char *>(sqlite3_column_text(statement, column));
    if (!bytes && sqlite3_errcode(sqlite3_db_handle(statement)) == SQLITE_NOMEM)
        return std::nullopt;
    const QUtf8StringView utf8(bytes ? bytes : "", sqlite3_column_bytes(statement, column));
    if (utf8.isValidUtf8())
        return utf8.toString();
    // Bytes that are not UTF-8 are decoded by SQLite's own rules, as QtSql has them decoded,
    // not replaced the way QString::fromUtf8 replaces them.
    const auto *utf16 = static_cast<const QChar *>(sqlite3_column_text16(statement, column));
    if (!utf16)
        return std::nullopt;
    return QString(utf16, sqlite3_column_bytes16(statement, column) / qsizetype(sizeof(QChar)));
}

// A non-NULL cell of a text column as the single-row read gives it (QSqlQuery's value, then
// QVariant::toString()), so the two reads agree on whatever a legacy file holds there.
std::optional<QString> text(sqlite3_stmt *statement, int column)
{
    switch (sqlite3_column_type(statement, column)) {
    case SQLITE_INTEGER:
        return QString::number(sqlite3_column_int64(statement, column));
    case SQLITE_FLOAT:
        return QVariant(sqlite3_column_double(statement, column)).toString();
    case SQLITE_BLOB: {
        // QtSql gives a zero-length blob as a null QByteArray, which becomes NULL text.
        const int size = sqlite3_column_bytes(statement, column);
        if (size == 0)
            return QString();
        return QString::fromUtf8(static_cast<const char *>(sqlite3_column_blob(statement, column)), size);
    }
    default:
        return storedText(statement, column);
    }
}

// What QtSql's SQLite driver hands over for the cell, so Row::setValue judges an integer
// column's value exactly as it does for a value from QSqlQuery.
std::optional<QVariant> cell(sqlite3_stmt *statement, int column)
{
    switch (sqlite3_column_type(statement, column)) {
    case SQLITE_NULL:
        return QVariant();
    case SQLITE_INTEGER:
        return QVariant(qint64(sqlite3_column_int64(statement, column)));
    case SQLITE_FLOAT:
        return QVariant(sqlite3_column_double(statement, column));
    case SQLITE_BLOB:
        return QVariant(QByteArray(static_cast<const char *>(sqlite3_column_blob(statement, column)),
                                   sqlite3_column_bytes(statement, column)));
    default:
        if (std::optional<QString> value = storedText(statement, column))
            return QVariant(*value);
        return std::nullopt;
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
            const Row::TextMember member = members[std::size_t(i)];
            // Whatever a text column holds is taken as text; a text member left alone stays
            // NULL.
            if (member && sqlite3_column_type(statement, i) != SQLITE_NULL) {
                std::optional<QString> value = text(statement, i);
                if (!value)
                    return SQLITE_NOMEM;
                row.*member = std::move(*value);
            } else if (!member) {
                std::optional<QVariant> value = cell(statement, i);
                if (!value)
                    return SQLITE_NOMEM;
                row.setValue(names[i], *value);
            }
        }
        if (!each(std::move(row)))
            return step;
    }
    return step;
}

} // namespace SqliteRowScan
