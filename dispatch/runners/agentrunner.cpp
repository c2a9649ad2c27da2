#include "dispatch/runners/agentrunner.h"

#include "dispatch/row/doclines.h"
#include "dispatch/runners/httpclient.h"
#include "dispatch/runners/httprequestbuilder.h"
#include "dispatch/runners/httprunner.h"
#include "dispatch/secrets/redactor.h"
#include "dispatch/store/directorystore.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>

namespace {

QStringList includeKeys(const Row &row)
{
    QStringList keys;
    for (const QString &piece : row.includes.split(u','))
        if (!piece.trimmed().isEmpty())
            keys << piece.trimmed();
    return keys;
}

// Depth first: a row's includes before its own payload. `path` is the chain being
// composed, for the cycle message; `used` keeps a block shared by two includes from
// appearing twice.
QString compose(const Row &row, const DirectoryStore *store, QStringList &path, QSet<QString> &used,
                QStringList &parts)
{
    path << row.key;
    for (const QString &key : includeKeys(row)) {
        if (path.contains(key))
            return QStringLiteral("ERR: includes cycle: %1")
                .arg((path.mid(path.indexOf(key)) << key).join(QStringLiteral(" > ")));
        if (used.contains(key))
            continue;
        if (!store)
            return QStringLiteral("ERR: include %1 not found").arg(key);
        const StoreResult<Row> included = store->row(key);
        if (!included.ok()) {
            if (included.error().kind == StoreError::Kind::NotFound)
                return QStringLiteral("ERR: include %1 not found").arg(key);
            return QStringLiteral("ERR: include %1: %2").arg(key, included.error().message);
        }
        QString error = compose(included.value(), store, path, used, parts);
        if (!error.isEmpty())
            return error;
        used.insert(key);
    }
    path.removeLast();
    const QString payload = DocLines::stripDocs(row.content);
    if (!payload.isEmpty())
        parts << payload;
    return {};
}

QString chatContent(const QByteArray &body, QString *error)
{
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(body, &parseError);
    if (!document.isObject()) {
        *error = QStringLiteral("ERR: malformed chat response: not a JSON object");
        return {};
    }
    const QJsonValue content = document.object()
                                   .value(QStringLiteral("choices"))
                                   .toArray()
                                   .at(0)
                                   .toObject()
                                   .value(QStringLiteral("message"))
                                   .toObject()
                                   .value(QStringLiteral("content"));
    if (!content.isString()) {
        *error = QStringLiteral("ERR: malformed chat response: no choices[0].message.content text");
        return {};
    }
    return content.toString();
}

} // namespace

AgentRunner::AgentRunner(HttpClient &client, AgentEndpoints endpoints)
    : m_client(client), m_endpoints(std::move(endpoints))
{}

AgentRunner::Prompt AgentRunner::composeSystemPrompt(const Row &row, const DirectoryStore *store)
{
    QStringList path;
    QSet<QString> used;
    QStringList parts;
    const QString error = compose(row, store, path, used, parts);
    if (!error.isEmpty())
        return {{}, error};
    return {parts.join(QStringLiteral("\n\n")), {}};
}

HttpCallPlan AgentRunner::buildPlan(const RunContext &context) const
{
    HttpCallPlan plan;
    plan.method = QStringLiteral("POST");
    const QString model = context.row.target.trimmed();
    const QString overrideBase = qEnvironmentVariable("CAPDESK_AGENT_BASE_URL");
    const std::optional<QUrl> base = overrideBase.isEmpty()
                                         ? m_endpoints.baseUrlFor(model)
                                         : std::optional<QUrl>(QUrl(overrideBase, QUrl::StrictMode));
    if (!base) {
        plan.error = QStringLiteral("ERR: no endpoint configured for model %1").arg(model);
        return plan;
    }
    QString baseText = base->toString(QUrl::FullyEncoded);
    while (baseText.endsWith(u'/'))
        baseText.chop(1);
    plan.url = QUrl(baseText + QStringLiteral("/chat/completions"), QUrl::StrictMode);
    if (!plan.url.isValid() || plan.url.host().isEmpty()) {
        plan.error = QStringLiteral("ERR: agent base URL is not an absolute URL: \"%1\"").arg(baseText);
        return plan;
    }

    const Prompt prompt = composeSystemPrompt(context.row, context.store);
    if (!prompt.error.isEmpty()) {
        plan.error = prompt.error;
        return plan;
    }
    const QJsonArray messages{QJsonObject{{QStringLiteral("role"), QStringLiteral("system")},
                                          {QStringLiteral("content"), prompt.text}},
                              QJsonObject{{QStringLiteral("role"), QStringLiteral("user")},
                                          {QStringLiteral("content"), context.body}}};
    const QJsonObject chat{{QStringLiteral("model"), model}, {QStringLiteral("messages"), messages}};
    plan.body = QJsonDocument(chat).toJson(QJsonDocument::Compact);
    plan.hasBody = true;
    plan.headers.append({QByteArrayLiteral("Content-Type"), QByteArrayLiteral("application/json")});
    HttpRequestBuilder::applyAuth(context.row.auth, context.secrets, plan);
    return plan;
}

void AgentRunner::run(const RunContext &context, std::function<void(RunResult)> done)
{
    const HttpCallPlan plan = buildPlan(context);
    if (context.shape) {
        RunResult shape = HttpRunner::shapeFor(plan);
        // The chat body as an object, so the composed prompt reads as JSON, not as a string.
        if (plan.hasBody) {
            const Redactor redactor(plan.usedSecretValues, plan.authQueryParameter);
            shape.shapeRequest.insert(QStringLiteral("body"),
                                      redactor.redactDeep(QJsonDocument::fromJson(plan.body).object()));
        }
        done(shape);
        return;
    }
    if (!plan.ok()) {
        done({plan.error, {}, plan.notes});
        return;
    }
    m_client.send(plan, context.cancelled, [plan, done = std::move(done)](const HttpResponse &response) {
        if (!response.ok() || response.status >= 400) {
            done(HttpRunner::outputFor(response, plan));
            return;
        }
        QString error;
        const QString content = chatContent(response.body, &error);
        const Redactor redactor(plan.usedSecretValues);
        done({redactor.maskSecretValues(error.isEmpty() ? content : error), {}, plan.notes});
    });
}
