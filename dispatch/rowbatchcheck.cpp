#include "rowbatchcheck.h"

#include "rowschema.h"

RowBatchCheck::RowBatchCheck(QSet<QString> takenKeys) : m_takenKeys(std::move(takenKeys)) {}

StoreError RowBatchCheck::add(const Row &row, int line)
{
    const int index = ++m_rowCount;
    auto refuse = [line](const QString &message) {
        return StoreError::make(StoreError::Kind::Invalid,
                                QStringLiteral("line %1: %2").arg(line).arg(message));
    };
    if (row.key.isEmpty())
        return refuse(QStringLiteral("row %1 has no key").arg(index));
    if (!RowSchema::isKnownType(row.type)) {
        const QString type = row.type.isNull() ? QStringLiteral("NULL") : u'\'' + row.type + u'\'';
        return refuse(QStringLiteral("row %1 ('%2') has type %3, not one of fn, http, agent, flow")
                          .arg(index)
                          .arg(row.key, type));
    }
    const auto first = m_lineOfKey.constFind(row.key);
    if (first != m_lineOfKey.constEnd())
        return refuse(QStringLiteral("key '%1' appears twice in the file (lines %2 and %3)")
                          .arg(row.key)
                          .arg(first.value())
                          .arg(line));
    if (m_takenKeys.contains(row.key))
        return refuse(QStringLiteral("key '%1' already exists in the directory").arg(row.key));
    m_lineOfKey.insert(row.key, line);
    return StoreError::none();
}
