#include "dispatch/row/rowbatchcheck.h"

#include "dispatch/row/rowvalidator.h"

#include <QJsonObject>

#include <algorithm>

RowBatchCheck::RowBatchCheck(QSet<QString> takenKeys) : m_takenKeys(std::move(takenKeys)) {}

StoreError RowBatchCheck::add(const Row &row, int line)
{
    const int index = ++m_rowCount;
    auto refuse = [line](const QString &message, const QJsonArray &details = {}) {
        return StoreError::make(StoreError::Kind::Invalid,
                                QStringLiteral("line %1: %2").arg(line).arg(message), details);
    };
    const QList<FieldProblem> problems = RowValidator::checkValidity(row);
    if (!problems.isEmpty()) {
        // A key that breaks a rule itself is not repeated: it may be huge or hold a line break.
        const bool keyIsText =
            std::none_of(problems.cbegin(), problems.cend(),
                         [](const FieldProblem &found) { return found.field == QLatin1String("key"); });
        const QString which = keyIsText ? QStringLiteral("row %1 ('%2')").arg(index).arg(row.key)
                                        : QStringLiteral("row %1").arg(index);
        QJsonArray findings = RowValidator::toJson(keyIsText ? row.key : QString(), problems);
        for (QJsonValueRef finding : findings) {
            QJsonObject located = finding.toObject();
            located.insert(QStringLiteral("row"), index);
            located.insert(QStringLiteral("line"), line);
            finding = located;
        }
        return refuse(which + QStringLiteral(": ") + RowValidator::describe(problems), findings);
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
