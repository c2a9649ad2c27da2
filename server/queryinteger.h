#pragma once

#include <QString>
#include <QUrlQuery>

#include <optional>

// A whole number from a request's query string, which is hostile input: digits only (no
// sign, space or exponent), given once, and within [minimum, maximum], so arithmetic on it
// downstream cannot overflow. A refusal names the parameter and its range.
class QueryInteger final
{
public:
    // The value of `name` (which must be present), or nullopt with `*error` set.
    static std::optional<qint64> read(const QUrlQuery &query, const QString &name, qint64 minimum,
                                      qint64 maximum, QString *error);
};
