#include "dispatch/row/row.h"

#include "dispatch/row/rowjsonfield.h"
#include "dispatch/row/rowschema.h"

#include <QJsonValue>

#include <cmath>
#include <utility>

namespace {

QString *textField(Row &row, const QString &column)
{
    const Row::TextMember member = Row::textMember(column);
    return member ? &(row.*member) : nullptr;
}

bool fail(QString *error, const QString &message)
{
    if (error)
        *error = message;
    return false;
}

// SQLite hands integers back as qlonglong, JSON as double, checkboxes as bool.
std::optional<qint64> integerFrom(const QVariant &value)
{
    switch (value.typeId()) {
    case QMetaType::Bool:
        return value.toBool() ? 1 : 0;
    case QMetaType::Int:
    case QMetaType::LongLong:
    case QMetaType::UInt:
    case QMetaType::ULongLong:
        return value.toLongLong();
    case QMetaType::Double: {
        const double d = value.toDouble();
        if (std::isfinite(d) && std::trunc(d) == d && std::fabs(d) < 9.007199254740992e15)
            return static_cast<qint64>(d);
        return std::nullopt;
    }
    case QMetaType::QString: {
        bool ok = false;
        const qint64 v = value.toString().trimmed().toLongLong(&ok);
        return ok ? std::optional<qint64>(v) : std::nullopt;
    }
    default:
        return std::nullopt;
    }
}

} // namespace

Row::TextMember Row::textMember(const QString &column)
{
    // A scan of short names beats hashing the column name: this runs once per value of
    // every row a dump or a QSqlQuery read hands over, 1.8 million times for 100,000 rows.
    static const std::pair<QLatin1String, TextMember> fields[] = {
        {QLatin1String("key"), &Row::key},
        {QLatin1String("type"), &Row::type},
        {QLatin1String("target"), &Row::target},
        {QLatin1String("auth"), &Row::auth},
        {QLatin1String("content"), &Row::content},
        {QLatin1String("updated_at"), &Row::updatedAt},
        {QLatin1String("category"), &Row::category},
        {QLatin1String("allowed_categories"), &Row::allowedCategories},
        {QLatin1String("input_schema"), &Row::inputSchema},
        {QLatin1String("examples"), &Row::examples},
        {QLatin1String("runner"), &Row::runner},
        {QLatin1String("includes"), &Row::includes},
        {QLatin1String("created_at"), &Row::createdAt},
    };
    for (const auto &[name, field] : fields) {
        if (column == name)
            return field;
    }
    return nullptr;
}

QVariant Row::value(const QString &column) const
{
    if (QString *text = textField(const_cast<Row &>(*this), column))
        return text->isNull() ? QVariant() : QVariant(*text);
    if (column == QLatin1String("seq"))
        return seq ? QVariant(*seq) : QVariant();
    if (column == QLatin1String("enabled"))
        return QVariant(qint64(enabled ? 1 : 0));
    if (column == QLatin1String("planner_visible"))
        return QVariant(qint64(plannerVisible ? 1 : 0));
    if (column == QLatin1String("planner_rank"))
        return QVariant(plannerRank);
    if (column == QLatin1String("sensitive"))
        return QVariant(qint64(sensitive ? 1 : 0));
    return {};
}

bool Row::setValue(const QString &column, const QVariant &value, QString *error)
{
    if (QString *text = textField(*this, column)) {
        if (value.isNull()) {
            *text = QString();
            return true;
        }
        if (value.typeId() != QMetaType::QString)
            return fail(error, QStringLiteral("field '%1' must be text or null").arg(column));
        *text = value.toString();
        return true;
    }
    if (!RowSchema::isIntegerColumn(column))
        return fail(error, QStringLiteral("unknown field '%1'").arg(column));

    if (value.isNull()) {
        // NULL in a defaulted column means the column's default, as SQLite would give it.
        const Row defaults;
        if (column == QLatin1String("seq"))
            seq.reset();
        else
            setValue(column, defaults.value(column));
        return true;
    }
    const std::optional<qint64> number = integerFrom(value);
    if (!number)
        return fail(error, QStringLiteral("field '%1' must be an integer").arg(column));
    if (RowSchema::isBooleanColumn(column) && *number != 0 && *number != 1)
        return fail(error, QStringLiteral("field '%1' must be 0 or 1").arg(column));

    if (column == QLatin1String("seq"))
        seq = *number;
    else if (column == QLatin1String("enabled"))
        enabled = *number != 0;
    else if (column == QLatin1String("planner_visible"))
        plannerVisible = *number != 0;
    else if (column == QLatin1String("planner_rank"))
        plannerRank = *number;
    else
        sensitive = *number != 0;
    return true;
}

QJsonObject Row::toJson() const
{
    QJsonObject object;
    for (const QString &column : RowSchema::columns())
        object.insert(column, QJsonValue::fromVariant(value(column)));
    return object;
}

std::optional<Row> Row::fromJson(const QJsonObject &object, QString *error)
{
    Row row;
    for (auto it = object.constBegin(); it != object.constEnd(); ++it) {
        QString refusal;
        const std::optional<QVariant> value = RowJsonField::read(it.key(), it.value(), &refusal);
        if (!value) {
            fail(error, refusal);
            return std::nullopt;
        }
        row.setValue(it.key(), *value);
    }
    return row;
}

bool Row::operator==(const Row &o) const
{
    auto sameText = [](const QString &a, const QString &b) { return a.isNull() == b.isNull() && a == b; };
    return sameText(key, o.key) && sameText(type, o.type) && sameText(target, o.target)
           && sameText(auth, o.auth) && sameText(content, o.content) && sameText(updatedAt, o.updatedAt)
           && sameText(category, o.category) && sameText(allowedCategories, o.allowedCategories)
           && seq == o.seq && enabled == o.enabled && plannerVisible == o.plannerVisible
           && plannerRank == o.plannerRank && sameText(inputSchema, o.inputSchema)
           && sameText(examples, o.examples) && sensitive == o.sensitive && sameText(runner, o.runner)
           && sameText(includes, o.includes) && sameText(createdAt, o.createdAt);
}
