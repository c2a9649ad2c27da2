#include "dispatch/row/rowschema.h"

namespace RowSchema {

const QStringList &columns()
{
    static const QStringList names{QStringLiteral("key"),
                                   QStringLiteral("type"),
                                   QStringLiteral("target"),
                                   QStringLiteral("auth"),
                                   QStringLiteral("content"),
                                   QStringLiteral("updated_at"),
                                   QStringLiteral("category"),
                                   QStringLiteral("allowed_categories"),
                                   QStringLiteral("seq"),
                                   QStringLiteral("enabled"),
                                   QStringLiteral("planner_visible"),
                                   QStringLiteral("planner_rank"),
                                   QStringLiteral("input_schema"),
                                   QStringLiteral("examples"),
                                   QStringLiteral("sensitive"),
                                   QStringLiteral("runner"),
                                   QStringLiteral("includes"),
                                   QStringLiteral("created_at")};
    return names;
}

const QStringList &types()
{
    static const QStringList names{QStringLiteral("fn"), QStringLiteral("http"), QStringLiteral("agent"),
                                   QStringLiteral("flow")};
    return names;
}

bool isKnownType(const QString &type)
{
    return types().contains(type);
}

const QStringList &patchableFields()
{
    static const QStringList names{
        QStringLiteral("type"),         QStringLiteral("target"),       QStringLiteral("auth"),
        QStringLiteral("content"),      QStringLiteral("category"),     QStringLiteral("allowed_categories"),
        QStringLiteral("seq"),          QStringLiteral("enabled"),      QStringLiteral("planner_visible"),
        QStringLiteral("planner_rank"), QStringLiteral("input_schema"), QStringLiteral("examples"),
        QStringLiteral("includes")};
    return names;
}

bool isBooleanColumn(const QString &column)
{
    return column == QLatin1String("enabled") || column == QLatin1String("planner_visible")
           || column == QLatin1String("sensitive");
}

bool isIntegerColumn(const QString &column)
{
    return isBooleanColumn(column) || column == QLatin1String("seq")
           || column == QLatin1String("planner_rank");
}

} // namespace RowSchema
