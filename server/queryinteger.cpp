#include "server/queryinteger.h"

#include <algorithm>

std::optional<qint64> QueryInteger::read(const QUrlQuery &query, const QString &name, qint64 minimum,
                                         qint64 maximum, QString *error)
{
    const QStringList values = query.allQueryItemValues(name, QUrl::FullyDecoded);
    const QString text = values.value(0);
    const bool digits =
        !text.isEmpty() && text.size() <= 19
        && std::all_of(text.cbegin(), text.cend(), [](QChar c) { return c >= u'0' && c <= u'9'; });
    bool ok = false;
    const qint64 value = digits ? text.toLongLong(&ok) : 0;
    if (values.size() == 1 && ok && value >= minimum && value <= maximum)
        return value;
    *error = QStringLiteral("%1 is one whole number from %2 to %3").arg(name).arg(minimum).arg(maximum);
    return std::nullopt;
}
