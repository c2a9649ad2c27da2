#include "contractdocument.h"

#include "authspec.h"
#include "contractfingerprint.h"
#include "doclines.h"

#include <QStringList>

namespace {

QString orNone(const QString &text)
{
    return text.trimmed().isEmpty() ? QStringLiteral("(not documented)") : text.trimmed();
}

// One sentence per runner: what the call does with the body, for a reader who has never
// seen the engine.
QString runnerLine(const Row &row)
{
    if (row.type == QLatin1String("http"))
        return QStringLiteral("Runs an HTTP request (`%1`); output `HTTP <status>:<body>`.").arg(row.target);
    if (row.type == QLatin1String("agent"))
        return QStringLiteral("Asks model `%1`; the body is the user message; output is its reply.").arg(row.target);
    if (row.type == QLatin1String("flow"))
        return QStringLiteral("A flow: runs other rows in order, each step's output feeding the next.");
    return QStringLiteral("Runs the builtin function `%1`.").arg(row.target);
}

QString authLine(const Row &row)
{
    if (row.auth.trimmed().isEmpty())
        return QStringLiteral("none");
    const std::optional<AuthSpec> spec = AuthSpec::parse(row.auth.trimmed());
    if (!spec)
        return QStringLiteral("`%1` (unreadable form)").arg(row.auth);
    return QStringLiteral("%1, secret `%2` (the owner holds it; never send it)").arg(spec->form(), spec->name);
}

QString exampleLine(const DocLines &docs)
{
    const QStringList examples = docs.examples();
    for (const QString &text : examples) {
        if (const std::optional<DocExample> example = DocLines::parseExample(text))
            return example->body;
    }
    return examples.isEmpty() ? QString() : examples.first();
}

} // namespace

QString ContractDocument::render(const Row &row)
{
    const DocLines docs = DocLines::parse(row.content);
    const QString example = exampleLine(docs);
    const QString body = QString(example).replace(QLatin1Char('"'), QLatin1String("\\\""));
    QStringList out;
    out << QStringLiteral("# %1").arg(row.key) << QString()
        << orNone(docs.description()) << QString()
        << QStringLiteral("- **When to use:** %1").arg(orNone(docs.whenToUse()))
        << QStringLiteral("- **Arguments:** %1").arg(orNone(docs.args()))
        << QStringLiteral("- **Output:** %1").arg(orNone(docs.output()))
        << QStringLiteral("- **Runs:** %1 Output starting `ERR:` is a failure.").arg(runnerLine(row))
        << QStringLiteral("- **Auth:** %1").arg(authLine(row))
        << QStringLiteral("- **Risk:** %1%2")
               .arg(row.sensitive ? QStringLiteral("high") : QStringLiteral("low"),
                    row.enabled ? QString() : QStringLiteral(" (disabled: calls are refused)"))
        << QString() << QStringLiteral("## Call") << QString()
        << QStringLiteral("`POST /api/dispatch` with JSON `{\"key\":\"%1\",\"body\":\"%2\"}`.").arg(row.key, body)
        << QStringLiteral("The body is one string; args are it split on `|` (`$1` first). "
                          "A `$N+` argument takes the rest, pipes included, so only the last may hold `|`.")
        << QString() << QStringLiteral("## Proof") << QString()
        << QStringLiteral("Contract fingerprint `%1`.").arg(ContractFingerprint::of(row))
        << QStringLiteral("Each call returns `proof.invocation_id`; "
                          "`GET /api/dispatch?confirm=<id>` says `PROVEN_MATERIAL_RESULT` when it ran "
                          "and succeeded; its `fingerprints.contract` must equal the one above.");
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
