#include "dispatch/row/rowjsonfield.h"

#include "dispatch/row/rowschema.h"

#include <cmath>

namespace {

bool isRequiredText(const QString &column)
{
    return column == QLatin1String("key") || column == QLatin1String("type");
}

// Qt keeps a JSON integer literal as qint64 and anything else (1.5, 1e300, 2.0) as a double.
std::optional<qint64> wholeNumberOf(const QJsonValue &value)
{
    if (!value.isDouble())
        return std::nullopt;
    const QVariant variant = value.toVariant();
    if (variant.typeId() == QMetaType::LongLong)
        return variant.toLongLong();
    const double number = value.toDouble();
    if (std::isfinite(number) && std::trunc(number) == number
        && std::fabs(number) <= double(RowJsonField::kLargestInteger))
        return qint64(number);
    return std::nullopt;
}

bool fits(const QString &column, const QJsonValue &value)
{
    if (!RowSchema::isIntegerColumn(column))
        return value.isString() || (value.isNull() && !isRequiredText(column));
    if (value.isNull())
        return column == QLatin1String("seq");
    const std::optional<qint64> number = wholeNumberOf(value);
    if (!number)
        return false;
    if (RowSchema::isBooleanColumn(column))
        return *number == 0 || *number == 1;
    return *number >= -RowJsonField::kLargestInteger && *number <= RowJsonField::kLargestInteger;
}

} // namespace

QString RowJsonField::expected(const QString &column)
{
    if (RowSchema::isBooleanColumn(column))
        return QStringLiteral("0 or 1");
    QString range = QStringLiteral("a whole number from %1 to %2").arg(-kLargestInteger).arg(kLargestInteger);
    if (column == QLatin1String("seq"))
        return QStringLiteral("null or ") + range;
    if (RowSchema::isIntegerColumn(column))
        return range;
    return isRequiredText(column) ? QStringLiteral("text") : QStringLiteral("text or null");
}

std::optional<QVariant> RowJsonField::read(const QString &column, const QJsonValue &value, QString *error)
{
    if (!RowSchema::columns().contains(column)) {
        *error = QStringLiteral("unknown field '%1'").arg(column);
        return std::nullopt;
    }
    if (!fits(column, value)) {
        *error = QStringLiteral("field '%1' must be %2").arg(column, expected(column));
        return std::nullopt;
    }
    if (value.isNull())
        return QVariant();
    if (value.isString())
        return QVariant(value.toString());
    return QVariant(*wholeNumberOf(value));
}
