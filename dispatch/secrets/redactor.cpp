#include "dispatch/secrets/redactor.h"

#include "dispatch/templates/templatesubstitution.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QRegularExpression>
#include <QUrl>

#include <algorithm>

const QString Redactor::marker = QStringLiteral("[redacted]");

namespace {

bool isCredentialName(const QString &name)
{
    const QString lower = name.toLower();
    return lower == QLatin1String("authorization") || lower == QLatin1String("x-api-key")
           || lower == QLatin1String("cookie") || lower == QLatin1String("proxy-authorization")
           || lower.endsWith(QLatin1String("_api_key"));
}

} // namespace

Redactor::Redactor(const QStringList &secretValues, const QString &authQueryParameter)
    : m_authQueryParameter(authQueryParameter)
{
    for (const QString &value : secretValues) {
        // An empty value would match everywhere and carries nothing to hide.
        if (value.isEmpty())
            continue;
        m_needles << value << TemplateSubstitution::encodeUriComponent(value)
                  << QString::fromLatin1(QUrl::toPercentEncoding(value))
                  << QString::fromLatin1(value.toUtf8().toBase64());
    }
    m_needles.removeDuplicates();
    std::sort(m_needles.begin(), m_needles.end(),
              [](const QString &a, const QString &b) { return a.size() > b.size(); });
}

QString Redactor::maskSecretValues(QString text) const
{
    for (const QString &needle : m_needles)
        text.replace(needle, marker);
    return text;
}

QString Redactor::redactText(QString text) const
{
    text = maskSecretValues(std::move(text));
    QString names = QStringLiteral("[A-Za-z0-9_.~-]*_api_key");
    if (!m_authQueryParameter.isEmpty())
        names += u'|' + QRegularExpression::escape(m_authQueryParameter);
    const QRegularExpression parameter(QStringLiteral("([?&](?:%1)=)[^&#\\s\"]*").arg(names),
                                       QRegularExpression::CaseInsensitiveOption);
    text.replace(parameter, QStringLiteral("\\1") + marker);
    return text;
}

QJsonValue Redactor::redactDeep(const QJsonValue &value) const
{
    if (value.isString())
        return redactText(value.toString());
    if (value.isArray()) {
        QJsonArray array;
        for (const QJsonValue item : value.toArray())
            array.append(redactDeep(item));
        return array;
    }
    if (value.isObject()) {
        QJsonObject object = value.toObject();
        for (auto it = object.begin(); it != object.end(); ++it)
            it.value() = isCredentialName(it.key()) ? QJsonValue(marker) : redactDeep(it.value());
        return object;
    }
    return value;
}
