#include "rowvalidator.h"

#include "jsontextcheck.h"
#include "rowschema.h"

#include <QJsonArray>
#include <QRegularExpression>

namespace {

std::optional<FieldProblem> checkField(const Row &row, const QString &field)
{
    if (field == QLatin1String("key") && !RowValidator::isValidKey(row.key))
        return FieldProblem{field, QStringLiteral("key '%1' must match ^[A-Z][A-Z0-9_]{1,63}$ "
                                                  "(capital letter first, then capitals, digits, _)")
                                       .arg(row.key)};
    if (field == QLatin1String("type") && !RowSchema::isKnownType(row.type))
        return FieldProblem{field, QStringLiteral("type '%1' is not one of fn, http, agent, flow")
                                       .arg(row.type)};
    if (field == QLatin1String("input_schema") && !row.inputSchema.trimmed().isEmpty()) {
        const JsonTextCheck json = JsonTextCheck::parse(row.inputSchema);
        if (!json.ok)
            return FieldProblem{field, QStringLiteral("input_schema is not JSON: ") + json.message};
        if (!json.document.isObject())
            return FieldProblem{field, QStringLiteral("input_schema must be a JSON Schema object")};
    }
    if (field == QLatin1String("examples") && !row.examples.trimmed().isEmpty()) {
        const JsonTextCheck json = JsonTextCheck::parse(row.examples);
        if (!json.ok)
            return FieldProblem{field, QStringLiteral("examples is not JSON: ") + json.message};
        if (!json.document.isArray())
            return FieldProblem{field, QStringLiteral("examples must be a JSON array of body strings")};
        const QJsonArray items = json.document.array();
        for (qsizetype i = 0; i < items.size(); ++i) {
            if (!items.at(i).isString())
                return FieldProblem{field, QStringLiteral("examples[%1] must be a string").arg(i)};
        }
    }
    return std::nullopt;
}

} // namespace

QList<FieldProblem> RowValidator::check(const Row &row)
{
    return checkFields(row, {QStringLiteral("key"), QStringLiteral("type"),
                             QStringLiteral("input_schema"), QStringLiteral("examples")});
}

QList<FieldProblem> RowValidator::checkFields(const Row &row, const QStringList &fields)
{
    QList<FieldProblem> problems;
    for (const QString &field : fields) {
        if (std::optional<FieldProblem> problem = checkField(row, field))
            problems.append(*problem);
    }
    return problems;
}

bool RowValidator::isValidKey(const QString &key)
{
    // Anchored on the whole text: a PCRE `$` would also accept a key ending in "\n".
    static const QRegularExpression form(QRegularExpression::anchoredPattern(QStringLiteral("[A-Z][A-Z0-9_]{1,63}")));
    return form.match(key).hasMatch();
}

QString RowValidator::describe(const QList<FieldProblem> &problems)
{
    QStringList lines;
    for (const FieldProblem &problem : problems)
        lines.append(problem.message);
    return lines.join(QStringLiteral("; "));
}
