#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QPair>
#include <QString>
#include <QStringList>
#include <QUrl>

class SecretSource;
struct RunContext;

// Everything one outbound request consists of, built once and then either sent or shown
// (shape mode), so the preview can never differ from what is sent.
struct HttpCallPlan
{
    QString method;
    QUrl url;
    QList<QPair<QByteArray, QByteArray>> headers;
    QByteArray body;
    bool hasBody = false;
    QStringList notes;
    QStringList usedSecretValues; // for redaction only; never shown, stored or logged
    QString authQueryParameter; // name of the query parameter carrying a credential, if any
    QString error; // "ERR: …"; when set, nothing may be sent

    bool ok() const { return error.isEmpty(); }
    // {"method","url","headers":{name:value},"body"} as built, credentials included:
    // callers pass it through Redactor before showing it. "body" is the text sent, or
    // null when no body is sent.
    QJsonObject toShape() const;
};

// THE request builder for http rows (SPEC §3 http and Auth), used by the live call and by
// shape mode alike.
class HttpRequestBuilder final
{
public:
    // From an http row: target "METHOD URL" (GET, POST, PUT, PATCH, DELETE, HEAD), the URL
    // substituted in url mode, the payload in its own mode, Content-Type by whether the
    // final body is strict JSON, then the row's auth.
    static HttpCallPlan build(const RunContext &context);

    // applyAuth: `bearer:NAME`, `basic:NAME` (value "user:password"), `query:NAME`
    // (parameter "key") or `query:PARAM=NAME`; empty means none. A secret that is not set
    // adds no credential at all and a note naming it; a malformed spec sets plan.error.
    static void applyAuth(const QString &auth, const SecretSource *secrets, HttpCallPlan &plan);
};
