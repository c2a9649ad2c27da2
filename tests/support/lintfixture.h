#pragma once

// Rows for the lint GUI tests: a compliant row of each kind the tests need and a directory
// file holding them, so a test names the one fault it is about.

#include "dispatch/row/row.h"
#include "dispatch/store/sqldirectorystore.h"

#include <QList>
#include <QString>

#include <memory>

namespace LintFixture {

// A compliant fn row: every doc line, an example with its own key, a known builtin.
inline Row goodRow(const QString &key, const QString &target = QStringLiteral("echo"))
{
    Row row;
    row.key = key;
    row.type = QStringLiteral("fn");
    row.target = target;
    row.category = QStringLiteral("text");
    row.content = QStringLiteral("# WHAT: Echoes its argument back.\n"
                                 "# WHEN_TO_USE: When a test needs a predictable answer.\n"
                                 "# ARGS: $1 the text\n"
                                 "# EX: [%1]hello[/%1]\n"
                                 "# OUTPUT: the text\n"
                                 "[\"$1\"]\n")
                      .arg(key);
    row.updatedAt = QStringLiteral("2026-01-02T03:04:05.678Z");
    row.createdAt = row.updatedAt;
    return row;
}

// A compliant flow over `steps` ("A > B").
inline Row flowRow(const QString &key, const QString &steps)
{
    Row row = goodRow(key);
    row.type = QStringLiteral("flow");
    row.target.clear();
    row.content = QStringLiteral("# WHAT: Runs the steps in order.\n"
                                 "# WHEN_TO_USE: When the steps belong together.\n"
                                 "# ARGS: none\n"
                                 "# EX: [%1][/%1]\n"
                                 "%2\n")
                      .arg(key, steps);
    return row;
}

// No doc lines at all: H010–H013 errors.
inline Row undocumentedRow(const QString &key)
{
    Row row = goodRow(key);
    row.content = QStringLiteral("[\"$1\"]\n");
    return row;
}

// Compliant apart from a missing OUTPUT line: a warning only (H015).
inline Row warningRow(const QString &key)
{
    Row row = goodRow(key);
    row.content.remove(QStringLiteral("# OUTPUT: the text\n"));
    return row;
}

inline std::shared_ptr<SqlDirectoryStore> openStore(const QString &path, const QList<Row> &rows)
{
    StoreResult<std::shared_ptr<SqlDirectoryStore>> store = SqlDirectoryStore::open(path);
    if (!store.ok() || store.value()->importRows(rows).isError())
        return nullptr;
    return store.value();
}

} // namespace LintFixture
