#include "dispatch/runners/httprequestbuilder.h"

#include "dispatch/row/authspec.h"

#include "dispatch/json/jsonsyntaxcheck.h"
#include "dispatch/row/doclines.h"
#include "dispatch/runners/runner.h"
#include "dispatch/secrets/secretsource.h"
#include "dispatch/templates/templatesubstitution.h"

#include <QJsonValue>
#include <QRegularExpression>

namespace {

const QStringList methods{QStringLiteral("GET"),   QStringLiteral("POST"),   QStringLiteral("PUT"),
                          QStringLiteral("PATCH"), QStringLiteral("DELETE"), QStringLiteral("HEAD")};

bool sendsNoEmptyBody(const QString &method)
{
    return method == QLatin1String("GET") || method == QLatin1String("HEAD")
           || method == QLatin1String("DELETE");
}

void addQueryParameter(QUrl &url, const QString &name, const QString &value)
{
    QString query = url.query(QUrl::FullyEncoded);
    if (!query.isEmpty())
        query += u'&';
    query += name + u'=' + TemplateSubstitution::encodeUriComponent(value);
    url.setQuery(query, QUrl::StrictMode);
}

} // namespace

QJsonObject HttpCallPlan::toShape() const
{
    QJsonObject headerObject;
    for (const auto &header : headers)
        headerObject.insert(QString::fromLatin1(header.first), QString::fromUtf8(header.second));
    return {{QStringLiteral("method"), method},
            {QStringLiteral("url"), url.toString(QUrl::FullyEncoded)},
            {QStringLiteral("headers"), headerObject},
            {QStringLiteral("body"),
             hasBody ? QJsonValue(QString::fromUtf8(body)) : QJsonValue(QJsonValue::Null)}};
}

HttpCallPlan HttpRequestBuilder::build(const RunContext &context)
{
    HttpCallPlan plan;
    const QString target = context.row.target.trimmed();
    const qsizetype space = target.indexOf(QRegularExpression(QStringLiteral("\\s")));
    plan.method = target.left(space);
    if (space < 0 || !methods.contains(plan.method)) {
        plan.error =
            QStringLiteral("ERR: http target must be \"METHOD URL\" with METHOD one of %1, got \"%2\"")
                .arg(methods.join(QStringLiteral(", ")), target);
        return plan;
    }

    TemplateContext templateContext;
    templateContext.args = context.args;
    const TemplateResult url =
        TemplateSubstitution::apply(target.mid(space + 1).trimmed(), templateContext, TemplateMode::Url);
    if (!url.ok()) {
        plan.error = url.error;
        return plan;
    }
    plan.url = QUrl(url.text, QUrl::StrictMode);
    const QString scheme = plan.url.scheme();
    if (!plan.url.isValid() || plan.url.host().isEmpty()
        || (scheme != QLatin1String("http") && scheme != QLatin1String("https"))) {
        plan.error =
            QStringLiteral("ERR: http target URL is not an absolute http(s) URL: \"%1\"").arg(url.text);
        return plan;
    }

    const QString payload = DocLines::stripDocs(context.row.content);
    const TemplateResult body =
        TemplateSubstitution::apply(payload, templateContext, TemplateSubstitution::modeForPayload(payload));
    if (!body.ok()) {
        plan.error = body.error;
        return plan;
    }
    if (plan.method == QLatin1String("HEAD") && !body.text.isEmpty()) {
        // Qt's HTTP stack reads a HEAD reply as body-less only for its own HEAD operation,
        // which carries no body; a HEAD with a body would wait for content that never comes.
        plan.notes << QStringLiteral("HEAD sends no body: the payload is not sent");
    } else if (!(body.text.isEmpty() && sendsNoEmptyBody(plan.method))) {
        plan.hasBody = true;
        plan.body = body.text.toUtf8();
        plan.headers.append(
            {QByteArrayLiteral("Content-Type"), JsonSyntaxCheck::isValid(body.text)
                                                    ? QByteArrayLiteral("application/json")
                                                    : QByteArrayLiteral("text/plain; charset=utf-8")});
    }

    applyAuth(context.row.auth, context.secrets, plan);
    return plan;
}

void HttpRequestBuilder::applyAuth(const QString &auth, const SecretSource *secrets, HttpCallPlan &plan)
{
    if (auth.trimmed().isEmpty())
        return;
    const std::optional<AuthSpec> spec = AuthSpec::parse(auth);
    if (!spec) {
        plan.error =
            QStringLiteral("ERR: malformed auth \"%1\": expected bearer:NAME, basic:NAME, query:NAME "
                           "or query:PARAM=NAME")
                .arg(auth.trimmed());
        return;
    }

    const SecretSource::Lookup secret = secrets ? secrets->lookup(spec->name) : SecretSource::Lookup{};
    if (secret.origin == SecretSource::Origin::Missing || secret.value.isEmpty()) {
        plan.notes << QStringLiteral("%1 is not set: no credential will be sent").arg(spec->name);
        return;
    }
    plan.usedSecretValues << secret.value;
    switch (spec->kind) {
    case AuthSpec::Kind::Bearer:
        plan.headers.append({QByteArrayLiteral("Authorization"), "Bearer " + secret.value.toUtf8()});
        break;
    case AuthSpec::Kind::Basic:
        plan.headers.append(
            {QByteArrayLiteral("Authorization"), "Basic " + secret.value.toUtf8().toBase64()});
        break;
    case AuthSpec::Kind::Query:
        addQueryParameter(plan.url, spec->parameter, secret.value);
        plan.authQueryParameter = spec->parameter;
        break;
    }
}
