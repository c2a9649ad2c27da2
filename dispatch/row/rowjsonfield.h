#pragma once

#include <QJsonValue>
#include <QString>
#include <QVariant>

#include <optional>

// One member of a row object from outside (a REST body, `capdeskctl put` or `patch` on
// stdin, a JSON import), read strictly so that nothing is coerced: a text column takes a
// JSON string (or null, except `key` and `type`); an integer column takes a JSON number
// that is whole and in range, never a bool, a string, a fraction or (but for `seq`) null.
// What SQLite hands back is Row::setValue's to accept, leniently, as SQLite stores it.
class RowJsonField final
{
public:
    // The largest whole number every JSON reader holds exactly (RFC 7493 §2.2): the range
    // of `seq` and `planner_rank`, so a row read back by any client is the row written.
    static constexpr qint64 kLargestInteger = (qint64(1) << 53) - 1;

    // The value to give Row::setValue, or nullopt with `*error` naming the field and what
    // it must be ("field 'enabled' must be 0 or 1").
    static std::optional<QVariant> read(const QString &column, const QJsonValue &value, QString *error);
    // What `column` must hold, in a refusal's words ("0 or 1", "text or null", …).
    static QString expected(const QString &column);
};
