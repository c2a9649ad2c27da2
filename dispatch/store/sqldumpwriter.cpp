#include "dispatch/store/sqldumpwriter.h"

#include "dispatch/row/rowschema.h"

namespace {

// Byte for byte the table production has, ALTER TABLE seams included, so a dump written
// here reads like one exported from production.
const char tableDefinition[] =
    "CREATE TABLE directory (\n"
    "  key        TEXT PRIMARY KEY,\n"
    "  type       TEXT NOT NULL CHECK (type IN ('fn','http','agent','flow')),\n"
    "  target     TEXT,\n"
    "  auth       TEXT,\n"
    "  content    TEXT,\n"
    "  updated_at TEXT NOT NULL\n"
    ", category TEXT, allowed_categories TEXT, seq INTEGER, enabled INTEGER DEFAULT 1,\n"
    "  planner_visible INTEGER DEFAULT 1, planner_rank INTEGER DEFAULT 100,\n"
    "  input_schema TEXT, examples TEXT, sensitive INTEGER DEFAULT 0, runner TEXT,\n"
    "  includes TEXT, created_at TEXT);\n";

void appendLiteral(QByteArray &out, const QVariant &value)
{
    if (value.isNull()) {
        out += "NULL";
    } else if (value.typeId() == QMetaType::QString) {
        QByteArray text = value.toString().toUtf8();
        out += '\'';
        out += text.replace('\'', "''");
        out += '\'';
    } else {
        out += QByteArray::number(value.toLongLong());
    }
}

} // namespace

QByteArray SqlDumpWriter::write(const QList<Row> &rows)
{
    const QStringList &columns = RowSchema::columns();
    const QByteArray insert = "INSERT INTO directory (" + columns.join(u',').toUtf8() + ") VALUES(";
    QByteArray out;
    // Cloudflare D1 exports open with this line; keeping it makes the dump one D1 takes back.
    out += "PRAGMA defer_foreign_keys=TRUE;\n";
    out += tableDefinition;
    for (const Row &row : rows) {
        out += insert;
        for (qsizetype i = 0; i < columns.size(); ++i) {
            if (i > 0)
                out += ',';
            appendLiteral(out, row.value(columns.at(i)));
        }
        out += ");\n";
    }
    return out;
}
