#include "dispatch/row/rowvalidator.h"

#include "dispatch/json/jsontextcheck.h"
#include "dispatch/row/rowschema.h"

#include <QDateTime>
#include <QHash>
#include <QJsonObject>
#include <QRegularExpression>

#include <optional>

namespace {

FieldProblem problem(const QString &field, const char *code, const char *name, const QString &message)
{
    return FieldProblem{field, QString::fromLatin1(code), QString::fromLatin1(name), message};
}

std::optional<FieldProblem> sizeProblem(const Row &row, const QString &field)
{
    const qsizetype limit = RowValidator::maxBytes(field);
    if (limit == 0)
        return std::nullopt;
    const QString text = row.value(field).toString();
    // Every UTF-16 unit is at most 3 UTF-8 bytes: most texts need no conversion to be judged.
    if (text.size() * 3 <= limit)
        return std::nullopt;
    const qsizetype bytes = text.toUtf8().size();
    if (bytes <= limit)
        return std::nullopt;
    return problem(field, "V004", "field_size",
                   QStringLiteral("%1 is %2 bytes, over its limit of %3").arg(field).arg(bytes).arg(limit));
}

std::optional<FieldProblem> jsonProblem(const Row &row, const QString &field)
{
    if (field == QLatin1String("input_schema") && !row.inputSchema.trimmed().isEmpty()) {
        const JsonTextCheck json = JsonTextCheck::parse(row.inputSchema);
        if (!json.ok)
            return problem(field, "H050", "input_schema_json",
                           QStringLiteral("input_schema is not JSON: ") + json.message);
        if (!json.document.isObject())
            return problem(field, "H050", "input_schema_json",
                           QStringLiteral("input_schema must be a JSON Schema object"));
    }
    if (field == QLatin1String("examples") && !row.examples.trimmed().isEmpty()) {
        const JsonTextCheck json = JsonTextCheck::parse(row.examples);
        if (!json.ok)
            return problem(field, "H051", "examples_json",
                           QStringLiteral("examples is not JSON: ") + json.message);
        if (!json.document.isArray())
            return problem(field, "H051", "examples_json",
                           QStringLiteral("examples must be a JSON array of body strings"));
        const QJsonArray items = json.document.array();
        for (qsizetype i = 0; i < items.size(); ++i) {
            if (!items.at(i).isString())
                return problem(field, "H051", "examples_json",
                               QStringLiteral("examples[%1] must be a string").arg(i));
        }
    }
    return std::nullopt;
}

std::optional<FieldProblem> validityProblem(const Row &row, const QString &field)
{
    if (field == QLatin1String("type") && !RowSchema::isKnownType(row.type))
        return problem(field, "V001", "type_known",
                       QStringLiteral("type %1 is not one of fn, http, agent, flow")
                           .arg(row.type.isNull() ? QStringLiteral("NULL") : u'\'' + row.type + u'\''));
    if (field == QLatin1String("runner") && !row.runner.isEmpty()
        && !RowValidator::knownRunners().contains(row.runner))
        return problem(field, "V002", "runner_known",
                       QStringLiteral("runner '%1' is not empty or one of %2")
                           .arg(row.runner, RowValidator::knownRunners().join(QStringLiteral(", "))));
    if (field == QLatin1String("updated_at") || field == QLatin1String("created_at")) {
        const QString stamp = row.value(field).toString();
        if (!stamp.isEmpty() && !RowValidator::isStoreTimestamp(stamp))
            return problem(
                field, "V003", "timestamp_form",
                QStringLiteral("%1 must be ISO-8601 UTC with milliseconds, like 2026-07-26T04:36:19.832Z "
                               "(or import with --restamp)")
                    .arg(field));
    }
    return sizeProblem(row, field);
}

const QStringList &validityFields()
{
    static const QStringList fields = [] {
        QStringList list;
        for (const QString &column : RowSchema::columns()) {
            if (!RowSchema::isIntegerColumn(column))
                list.append(column);
        }
        return list;
    }();
    return fields;
}

} // namespace

QList<FieldProblem> RowValidator::check(const Row &row)
{
    return checkFields(row, RowSchema::columns());
}

QList<FieldProblem> RowValidator::checkFields(const Row &row, const QStringList &fields)
{
    QList<FieldProblem> problems;
    for (const QString &field : fields) {
        if (field == QLatin1String("key") && !isValidKey(row.key)) {
            problems.append(problem(field, "H001", "key_format",
                                    QStringLiteral("key '%1' must match ^[A-Z][A-Z0-9_]{1,63}$ "
                                                   "(capital letter first, then capitals, digits, _)")
                                        .arg(row.key)));
            continue;
        }
        // The store stamps both timestamps on every write: what a writer sends is not kept.
        if (field == QLatin1String("updated_at") || field == QLatin1String("created_at"))
            continue;
        if (std::optional<FieldProblem> found = validityProblem(row, field))
            problems.append(*found);
        else if (std::optional<FieldProblem> json = jsonProblem(row, field))
            problems.append(*json);
    }
    return problems;
}

QList<FieldProblem> RowValidator::checkValidity(const Row &row)
{
    QList<FieldProblem> problems;
    static const QRegularExpression badKeyText(QStringLiteral(R"([\s\x00-\x1f\x7f])"));
    if (row.key.isEmpty() || row.key.contains(badKeyText))
        problems.append(
            problem(QStringLiteral("key"), "V005", "key_text",
                    QStringLiteral("the key must not be empty or hold spaces or control characters")));
    for (const QString &field : validityFields()) {
        if (std::optional<FieldProblem> found = validityProblem(row, field))
            problems.append(*found);
    }
    return problems;
}

bool RowValidator::isValidKey(const QString &key)
{
    // Anchored on the whole text: a PCRE `$` would also accept a key ending in "\n".
    static const QRegularExpression form(
        QRegularExpression::anchoredPattern(QStringLiteral("[A-Z][A-Z0-9_]{1,63}")));
    return form.match(key).hasMatch();
}

bool RowValidator::isStoreTimestamp(const QString &text)
{
    // [0-9], not \d: \d would take any script's digits.
    static const QRegularExpression form(QRegularExpression::anchoredPattern(
        QStringLiteral("[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9]{3}Z")));
    if (!form.match(text).hasMatch())
        return false;
    // The form alone would take the 30th of February or 24:00.
    const QDateTime parsed = QDateTime::fromString(text, QStringLiteral("yyyy-MM-ddTHH:mm:ss.zzzZ"));
    return parsed.isValid() && parsed.toString(QStringLiteral("yyyy-MM-ddTHH:mm:ss.zzzZ")) == text;
}

const QStringList &RowValidator::knownRunners()
{
    // The substrates production's `runner` column names (migration 0064_substrate).
    static const QStringList runners{QStringLiteral("edge"), QStringLiteral("worker")};
    return runners;
}

qsizetype RowValidator::maxBytes(const QString &column)
{
    static const QHash<QString, qsizetype> limits{
        {QStringLiteral("key"), 256},
        {QStringLiteral("type"), 16},
        {QStringLiteral("target"), 8 * 1024},
        {QStringLiteral("auth"), 1024},
        {QStringLiteral("content"), 512 * 1024},
        {QStringLiteral("updated_at"), 64},
        {QStringLiteral("category"), 256},
        {QStringLiteral("allowed_categories"), 8 * 1024},
        {QStringLiteral("input_schema"), 64 * 1024},
        {QStringLiteral("examples"), 64 * 1024},
        {QStringLiteral("runner"), 64},
        {QStringLiteral("includes"), 8 * 1024},
        {QStringLiteral("created_at"), 64},
    };
    return limits.value(column, 0);
}

QString RowValidator::describe(const QList<FieldProblem> &problems)
{
    QStringList lines;
    for (const FieldProblem &found : problems)
        lines.append(
            QStringLiteral("%1 %2 (%3): %4").arg(found.code, found.name, found.field, found.message));
    return lines.join(QStringLiteral("; "));
}

QJsonArray RowValidator::toJson(const QString &key, const QList<FieldProblem> &problems)
{
    QJsonArray findings;
    for (const FieldProblem &found : problems)
        findings.append(QJsonObject{{QStringLiteral("key"), key},
                                    {QStringLiteral("code"), found.code},
                                    {QStringLiteral("name"), found.name},
                                    {QStringLiteral("severity"), QStringLiteral("error")},
                                    {QStringLiteral("field"), found.field},
                                    {QStringLiteral("message"), found.message}});
    return findings;
}
