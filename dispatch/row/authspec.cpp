#include "dispatch/row/authspec.h"

#include <QRegularExpression>

std::optional<AuthSpec> AuthSpec::parse(const QString &auth)
{
    // Secret names are environment variable names; parameter names are kept to characters
    // that need no escaping in a query, so the spec text is also the text on the wire.
    static const QRegularExpression secretName(
        QRegularExpression::anchoredPattern(QStringLiteral("[A-Za-z_][A-Za-z0-9_]*")));
    static const QRegularExpression parameterName(
        QRegularExpression::anchoredPattern(QStringLiteral("[A-Za-z0-9_.~-]+")));

    const QString spec = auth.trimmed();
    const qsizetype colon = spec.indexOf(u':');
    if (colon < 0)
        return std::nullopt;
    const QString prefix = spec.left(colon);
    AuthSpec parsed;
    parsed.name = spec.mid(colon + 1);
    if (prefix == QLatin1String("bearer")) {
        parsed.kind = Kind::Bearer;
    } else if (prefix == QLatin1String("basic")) {
        parsed.kind = Kind::Basic;
    } else if (prefix == QLatin1String("query")) {
        parsed.kind = Kind::Query;
        parsed.parameter = QStringLiteral("key");
        if (parsed.name.contains(u'=')) {
            parsed.parameter = parsed.name.section(u'=', 0, 0);
            parsed.name = parsed.name.section(u'=', 1);
        }
        if (!parameterName.match(parsed.parameter).hasMatch())
            return std::nullopt;
    } else {
        return std::nullopt;
    }
    if (!secretName.match(parsed.name).hasMatch())
        return std::nullopt;
    return parsed;
}

QString AuthSpec::form() const
{
    switch (kind) {
    case Kind::Bearer:
        return QStringLiteral("bearer");
    case Kind::Basic:
        return QStringLiteral("basic");
    case Kind::Query:
        break;
    }
    return QStringLiteral("query:") + parameter;
}
