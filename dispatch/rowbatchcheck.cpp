#include "rowbatchcheck.h"

#include "rowvalidator.h"

RowBatchCheck::RowBatchCheck(QSet<QString> takenKeys) : m_takenKeys(std::move(takenKeys)) {}

StoreError RowBatchCheck::add(const Row &row, int line)
{
    const int index = ++m_rowCount;
    auto refuse = [line](const QString &message, const QJsonArray &details = {}) {
        return StoreError::make(StoreError::Kind::Invalid, QStringLiteral("line %1: %2").arg(line).arg(message),
                                details);
    };
    const QList<FieldProblem> problems = RowValidator::checkValidity(row);
    if (!problems.isEmpty()) {
        const QString which = row.key.isEmpty() ? QStringLiteral("row %1").arg(index)
                                                : QStringLiteral("row %1 ('%2')").arg(index).arg(row.key);
        return refuse(which + QStringLiteral(": ") + RowValidator::describe(problems),
                      RowValidator::toJson(row.key, problems));
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
