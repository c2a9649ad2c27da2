#include "views/common/typeicons.h"

#include "dispatch/row/rowschema.h"

namespace TypeIcons {

QHash<QString, QIcon> all()
{
    QHash<QString, QIcon> icons;
    for (const QString &type : RowSchema::types())
        icons.insert(type, forType(type));
    return icons;
}

QIcon forType(const QString &type)
{
    if (!RowSchema::isKnownType(type))
        return {};
    return QIcon(QStringLiteral(":/icons/%1.svg").arg(type));
}

QIcon application()
{
    return QIcon(QStringLiteral(":/icons/capdesk.svg"));
}

} // namespace TypeIcons
