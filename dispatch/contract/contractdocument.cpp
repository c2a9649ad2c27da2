#include "dispatch/contract/contractdocument.h"

#include "dispatch/contract/contractfingerprint.h"
#include "dispatch/json/canonicaljson.h"
#include "dispatch/lint/rules/directoryindex.h"
#include "dispatch/row/argumentspec.h"
#include "dispatch/row/authspec.h"
#include "dispatch/row/doclines.h"

#include <QJsonDocument>
#include <QStringList>

namespace {

QString item(const QString &label, const QString &text)
{
    return QStringLiteral("- **%1:** %2").arg(label, text);
}

// What the runner does with the body and what its output looks like, in the reader's terms.
QString runsLine(const Row &row)
{
    if (row.type == QLatin1String("http"))
        return QStringLiteral("HTTP request `%1` (`$N` in the URL: argument N, URL-encoded). "
                              "Output `HTTP <status>:<response body>`; status 400 or more gives "
                              "`ERR: HTTP <status>:<body>`.")
            .arg(row.target);
    if (row.type == QLatin1String("agent"))
        return QStringLiteral("model `%1`; the body is the user message, the output is its reply.")
            .arg(row.target);
    if (row.type == QLatin1String("flow")) {
        const QStringList steps = DirectoryIndex::flowKeysOf(row);
        return QStringLiteral("a flow with steps calling %1; each step's output feeds the next, and the "
                              "output is the last step's. Each step has its own contract.")
            .arg(steps.isEmpty() ? QStringLiteral("other rows")
                                 : u'`' + steps.join(QStringLiteral("`, `")) + u'`');
    }
    return QStringLiteral("builtin function `%1`; the output is the text it returns.").arg(row.target);
}

// The ARGS line as its author wrote it when it declares something; free text such as "see
// content" would point the reader at what this page does not show, so then the arguments
// come from the schema or the template instead.
QString argumentsText(const Row &row, const DocLines &docs)
{
    bool usable = false;
    ArgumentSpec::fromArgsLine(docs.args(), &usable);
    if (usable)
        return docs.args().trimmed();
    const ArgumentSpec spec = ArgumentSpec::fromRow(row);
    QStringList parts;
    for (const ArgumentSlot &slot : spec.arguments()) {
        QString part = QStringLiteral("`$%1%2` %3")
                           .arg(QString::number(slot.index), slot.takesRest ? QStringLiteral("+") : QString(),
                                slot.name);
        if (!slot.description.isEmpty())
            part += QStringLiteral(" (%1)").arg(slot.description);
        parts.append(part);
    }
    return parts.isEmpty() ? QStringLiteral("none") : parts.join(QStringLiteral(", "));
}

QString exampleBody(const DocLines &docs)
{
    for (const QString &text : docs.examples()) {
        if (const std::optional<DocExample> example = DocLines::parseExample(text))
            return example->body;
    }
    return {};
}

QString authLine(const Row &row)
{
    const std::optional<AuthSpec> spec = AuthSpec::parse(row.auth.trimmed());
    if (!spec)
        return QStringLiteral("`%1` (not a form the server understands)").arg(row.auth.trimmed());
    return QStringLiteral("%1 with secret `%2`, which the server holds and adds; never send it.")
        .arg(spec->form(), spec->name);
}

QString compactSchema(const Row &row)
{
    const QJsonDocument schema = QJsonDocument::fromJson(row.inputSchema.toUtf8());
    if (schema.isObject())
        return QString::fromUtf8(CanonicalJson::serialize(schema.object()));
    return row.inputSchema.trimmed();
}

QStringList facts(const Row &row, const DocLines &docs)
{
    QStringList out;
    if (!docs.whenToUse().trimmed().isEmpty())
        out << item(QStringLiteral("When to use"), docs.whenToUse().trimmed());
    out << item(QStringLiteral("Arguments"), argumentsText(row, docs));
    if (!row.inputSchema.trimmed().isEmpty())
        out << item(QStringLiteral("Input schema"), u'`' + compactSchema(row) + u'`');
    if (!docs.output().trimmed().isEmpty())
        out << item(QStringLiteral("Output"), docs.output().trimmed());
    out << item(QStringLiteral("Runs"), runsLine(row));
    if (!row.auth.trimmed().isEmpty())
        out << item(QStringLiteral("Auth"), authLine(row));
    out << item(QStringLiteral("Risk"),
                row.sensitive ? QStringLiteral("high: a token whose `risk_ceiling` is low is refused.")
                              : QStringLiteral("low."));
    if (!row.enabled)
        out << item(QStringLiteral("Disabled"),
                    QStringLiteral("every call is refused until the owner enables it."));
    return out;
}

QStringList callSection(const Row &row, const DocLines &docs)
{
    QByteArray request = "{\"key\":";
    CanonicalJson::appendString(row.key, &request);
    request += ",\"body\":";
    CanonicalJson::appendString(exampleBody(docs), &request);
    request += '}';
    QStringList out{QStringLiteral("## Call"),
                    QString(),
                    QStringLiteral("`POST /api/dispatch` with:"),
                    QString(),
                    QStringLiteral("```json"),
                    QString::fromUtf8(request),
                    QStringLiteral("```"),
                    QString()};
    QString split =
        QStringLiteral("`body` is one string, split on `|` into `$1`, `$2`, … (a missing one is "
                       "empty). Only a `$N+` argument, always the last, may hold `|`: it takes the "
                       "rest of the body.");
    if (ArgumentSpec::fromRow(row).lastTakesRest())
        split += QStringLiteral(" This row's last argument is one.");
    out << split << QString()
        << QStringLiteral(
               "The answer is `{\"ok\",\"ran\",\"trace\",\"result\",\"proof\":{\"invocation_id\",…}}`: "
               "`result` is the output, and `ok` is false when it starts with `ERR:` (a failure). "
               "Add `\"shape\":true` to see the request it would make without running it.");
    return out;
}

QStringList proofSection(const Row &row)
{
    return {
        QStringLiteral("## Proof"), QString(),
        QStringLiteral("Contract fingerprint `%1` (SHA-256 of the fields that define the call).")
            .arg(ContractFingerprint::of(row)),
        QStringLiteral("Every call (not a shape) writes a signed receipt. `GET "
                       "/api/dispatch?confirm=<invocation_id>` answers "
                       "`confirmed` and a `status`: `PROVEN_MATERIAL_RESULT` (it ran and succeeded), "
                       "`RAN_WITHOUT_MATERIAL_RESULT` or `UNKNOWN_INVOCATION`. Its `fingerprints.contract` "
                       "must equal the one above; `input` and `output` are SHA-256 of the body and output.")};
}

} // namespace

QString ContractDocument::render(const Row &row)
{
    const DocLines docs = DocLines::parse(row.content);
    QStringList out{QStringLiteral("# %1").arg(row.key), QString()};
    if (!docs.description().trimmed().isEmpty())
        out << docs.description().trimmed() << QString();
    out << facts(row, docs) << QString() << callSection(row, docs) << QString() << proofSection(row);
    return out.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

int ContractDocument::estimateTokens(const QString &text)
{
    const qsizetype bytes = text.toUtf8().size();
    return int((bytes + 3) / 4);
}

qint64 ContractDocument::registryBytes(const QList<Row> &rows)
{
    qint64 total = 0;
    for (const Row &row : rows)
        total += render(row).toUtf8().size();
    return total;
}
