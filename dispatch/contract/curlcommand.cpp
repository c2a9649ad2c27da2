#include "dispatch/contract/curlcommand.h"

#include "dispatch/row/authspec.h"
#include "dispatch/secrets/redactor.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QStringList>

#include <algorithm>
#include <optional>

using namespace Qt::StringLiterals;

namespace {

// One shell word: literal text and references to environment variables.
struct Part
{
    QString text; // the literal, or the variable's name
    bool variable = false;
};
using Word = QList<Part>;

// The characters double quotes do not keep literal ('!' only in an interactive bash, where
// a pasted command meets history expansion).
bool literalInDoubleQuotes(const QString &text)
{
    for (const QChar c : text) {
        if (c == u'$' || c == u'`' || c == u'"' || c == u'\\' || c == u'!')
            return false;
    }
    return true;
}

// A word holding a reference, quoted so that only the reference is expanded. A reference is
// always last in its word or just before a URL's '#', so $NAME needs no braces.
QString render(const Word &word)
{
    const bool plain = std::all_of(word.begin(), word.end(), [](const Part &part) {
        return part.variable || literalInDoubleQuotes(part.text);
    });
    QString out;
    if (plain) {
        out += u'"';
        for (const Part &part : word)
            out += part.variable ? u'$' + part.text : part.text;
        return out + u'"';
    }
    for (const Part &part : word) {
        if (part.variable)
            out += u"\"$"_s + part.text + u'"';
        else if (!part.text.isEmpty())
            out += CurlCommand::quote(part.text);
    }
    return out;
}

// The URL with the credential's query parameter referencing `name`: the last PARAM item
// the redactor masked is dropped (the engine appends the credential last) and PARAM=$NAME
// appended to the query.
Word urlWithQueryCredential(const QString &url, const QString &parameter, const QString &name)
{
    const qsizetype hash = url.indexOf(u'#');
    const QString fragment = hash < 0 ? QString() : url.mid(hash);
    const QString beforeFragment = hash < 0 ? url : url.left(hash);
    const qsizetype question = beforeFragment.indexOf(u'?');
    const QString base = question < 0 ? beforeFragment : beforeFragment.left(question);
    QStringList items =
        question < 0 ? QStringList() : beforeFragment.mid(question + 1).split(u'&', Qt::SkipEmptyParts);
    const QString masked = parameter + u'=' + Redactor::marker;
    for (qsizetype i = items.size() - 1; i >= 0; --i) {
        if (items.at(i) == masked) {
            items.removeAt(i);
            break;
        }
    }
    items.append(parameter + u'=');
    return {{base + u'?' + items.join(u'&'), false}, {name, true}, {fragment, false}};
}

QString bodyText(const QJsonValue &body)
{
    if (body.isObject())
        return QString::fromUtf8(QJsonDocument(body.toObject()).toJson(QJsonDocument::Compact));
    if (body.isArray())
        return QString::fromUtf8(QJsonDocument(body.toArray()).toJson(QJsonDocument::Compact));
    return body.toString();
}

} // namespace

QString CurlCommand::quote(const QString &text)
{
    QString quoted = text;
    quoted.replace(u'\'', QStringLiteral("'\\''"));
    return u'\'' + quoted + u'\'';
}

QString CurlCommand::fromShape(const QJsonObject &request, const QString &auth)
{
    const QString method = request.value(QStringLiteral("method")).toString();
    const QString url = request.value(QStringLiteral("url")).toString();
    if (method.isEmpty() || url.isEmpty())
        return {};
    const std::optional<AuthSpec> spec = AuthSpec::parse(auth);

    QString comment;
    if (!spec && !auth.trimmed().isEmpty()) {
        // The auth text itself is not repeated: a malformed one may be a pasted credential.
        // No quote or bracket in it: pasted into a shell that does not take comments, it must
        // not start a string that swallows the command.
        comment = QStringLiteral("# The auth of this row names no secret by a shell variable name, so its "
                                 "credential is left as the preview shows it.\n");
    }
    // -g: brackets and braces in a URL are data, not curl's globs.
    QStringList parts{QStringLiteral("curl -sS -g")};
    // HEAD needs -I: with -X HEAD curl would wait for a body that never comes.
    if (method == QLatin1String("HEAD"))
        parts << QStringLiteral("-I");
    else
        parts << QStringLiteral("-X") << method;
    const bool inQuery = spec && spec->kind == AuthSpec::Kind::Query;
    parts << (inQuery ? render(urlWithQueryCredential(url, spec->parameter, spec->name)) : quote(url));

    // The engine's Authorization header is the credential's (shown "[redacted]", or absent
    // when the secret was missing); the reference takes its place.
    const bool inHeader = spec && spec->kind != AuthSpec::Kind::Query;
    const QJsonObject headers = request.value(QStringLiteral("headers")).toObject();
    for (auto it = headers.constBegin(); it != headers.constEnd(); ++it) {
        if (inHeader && it.key().compare(QLatin1String("Authorization"), Qt::CaseInsensitive) == 0)
            continue;
        parts << QStringLiteral("-H") << quote(it.key() + QStringLiteral(": ") + it.value().toString());
    }
    if (inHeader && spec->kind == AuthSpec::Kind::Bearer)
        parts << QStringLiteral("-H")
              << render({{QStringLiteral("Authorization: Bearer "), false}, {spec->name, true}});
    if (inHeader && spec->kind == AuthSpec::Kind::Basic)
        parts << QStringLiteral("-u") << render({{spec->name, true}});

    const QJsonValue body = request.value(QStringLiteral("body"));
    // --data-raw, not -d: a body starting with '@' is text here, not a file to read.
    if (!body.isNull() && !body.isUndefined())
        parts << QStringLiteral("--data-raw") << quote(bodyText(body));
    return comment + parts.join(u' ');
}
