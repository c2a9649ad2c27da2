#include "dispatch/lint/hygienegate.h"

#include "dispatch/lint/linter.h"

#include <QJsonArray>
#include <QStringList>

namespace {

QList<LintFinding> errorsOf(const QList<LintFinding> &findings)
{
    QList<LintFinding> errors;
    for (const LintFinding &finding : findings) {
        if (finding.isError())
            errors.append(finding);
    }
    return errors;
}

StoreError refusal(const QString &lead, const QList<LintFinding> &errors)
{
    QStringList lines{lead};
    QJsonArray details;
    for (const LintFinding &finding : errors) {
        lines.append(
            QStringLiteral("%1 %2 (%3): %4").arg(finding.code, finding.name, finding.field, finding.message));
        details.append(finding.toJson());
    }
    return StoreError::make(StoreError::Kind::Invalid, lines.join(QLatin1Char('\n')), details);
}

} // namespace

StoreError HygieneGate::checkCreate(const Row &row, const DirectoryIndex &index)
{
    const QList<LintFinding> errors = refusalFindings(row, index);
    if (errors.isEmpty())
        return StoreError::none();
    return refusal(
        QStringLiteral("hygiene: %1 is not compliant; fix every rule below before saving:").arg(row.key),
        errors);
}

StoreError HygieneGate::checkPatch(const Row &before, const Row &after, const DirectoryIndex &index)
{
    if (!refusalFindings(before, index).isEmpty())
        return StoreError::none();
    const QList<LintFinding> errors = refusalFindings(after, index);
    if (errors.isEmpty())
        return StoreError::none();
    return refusal(QStringLiteral("hygiene: %1 was compliant before this change and would not be after it; "
                                  "fix every rule below or leave those fields as they were:")
                       .arg(after.key),
                   errors);
}

QList<LintFinding> HygieneGate::importFindings(QList<Row> existing, const QList<Row> &imported,
                                               bool localEngine)
{
    existing.append(imported);
    const DirectoryIndex index = DirectoryIndex::build(existing);
    const Linter linter(index, localEngine);
    QList<LintFinding> errors;
    for (const Row &row : imported)
        errors.append(errorsOf(linter.lint(row)));
    return errors;
}

QList<LintFinding> HygieneGate::refusalFindings(const Row &row, const DirectoryIndex &index)
{
    return errorsOf(Linter(index).lint(row));
}
