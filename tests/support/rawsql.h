#pragma once

#include <QString>
#include <QStringList>

// SQL run on a connection of its own, as a tool outside Capdesk would run it: how tests
// tamper with a directory file behind the store's back.
namespace RawSql {

// Runs `statements` in order and stops at the first that fails; returns its error text,
// or "" when all ran.
QString exec(const QString &path, const QStringList &statements);

} // namespace RawSql
