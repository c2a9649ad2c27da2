#include "remote/rowpatch.h"

#include "dispatch/row/rowschema.h"

namespace RowPatch {

QJsonObject changedFields(const Row &current, const Row &edited)
{
    const QJsonObject before = current.toJson();
    const QJsonObject after = edited.toJson();
    QJsonObject fields;
    for (const QString &field : RowSchema::patchableFields()) {
        if (before.value(field) != after.value(field))
            fields.insert(field, after.value(field));
    }
    return fields;
}

QStringList lockedChanges(const Row &current, const Row &edited)
{
    QStringList locked;
    if (current.key != edited.key)
        locked.append(QStringLiteral("key"));
    if (current.runner != edited.runner)
        locked.append(QStringLiteral("runner"));
    if (current.sensitive != edited.sensitive)
        locked.append(QStringLiteral("sensitive"));
    return locked;
}

QString lockedReason()
{
    return QStringLiteral("runner and sensitive cannot be changed over the server (SPEC §10 allow-list)");
}

} // namespace RowPatch
