#include "dispatch/lint/rules/lintfinding.h"

QJsonObject LintFinding::toJson() const
{
    return {{QStringLiteral("key"), key},     {QStringLiteral("code"), code},
            {QStringLiteral("name"), name},   {QStringLiteral("severity"), severity},
            {QStringLiteral("field"), field}, {QStringLiteral("message"), message}};
}

LintFinding LintFinding::fromJson(const QJsonObject &object)
{
    const auto text = [&object](const char *name) { return object.value(QLatin1String(name)).toString(); };
    return {text("key"), text("code"), text("name"), text("severity"), text("field"), text("message")};
}

bool LintFinding::isError() const
{
    return severity == QLatin1String("error");
}

bool LintFinding::operator==(const LintFinding &other) const
{
    return key == other.key && code == other.code && name == other.name && severity == other.severity
           && field == other.field && message == other.message;
}
