#pragma once

#include <QJsonValue>
#include <QString>
#include <QStringList>

// redactDeep (SPEC §5): strips credential material from anything shown or returned.
// Over a JSON tree it masks, with a visible "[redacted]":
// - the value of any member named authorization, x-api-key, cookie or
//   proxy-authorization, or ending in _api_key (any case: production also strips
//   "*_API_KEY-shaped" entries);
// - in any string, the value of a query parameter with the auth parameter's name (or a
//   name ending in _api_key);
// - in any string, every occurrence of a secret value resolved for the call, also in the
//   percent-encoded and base64 forms it takes in a URL or a Basic header.
class Redactor final
{
public:
    static const QString marker; // "[redacted]"

    explicit Redactor(const QStringList &secretValues, const QString &authQueryParameter = QString());

    QJsonValue redactDeep(const QJsonValue &value) const;
    // The string rules alone, for URLs and error texts.
    QString redactText(QString text) const;
    // Only the secret values: for a real call's output, where a parameter that merely
    // looks like a key belongs to the upstream's answer and stays as it is.
    QString maskSecretValues(QString text) const;

private:
    QStringList m_needles; // longest first, so a secret containing another is masked whole
    QString m_authQueryParameter;
};
