#include "dispatch/contract/mcpbodyrule.h"

#include "dispatch/json/jsonkeyorder.h"
#include "dispatch/json/jsonvaluetext.h"
#include "dispatch/row/doclines.h"
#include "dispatch/templates/templatesubstitution.h"

#include <QJsonDocument>
#include <QRegularExpression>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace {

QString payloadOf(const Row &row)
{
    return DocLines::stripDocs(row.content);
}

// Whether the row's templates (target and payload) take args N.. as one with `$N+`.
bool takesRestAt(const Row &row, int n)
{
    for (const QString &text : {row.target, payloadOf(row)}) {
        const QList<TemplatePlaceholder> found = TemplateSubstitution::placeholders(text);
        if (std::any_of(found.cbegin(), found.cend(), [n](const TemplatePlaceholder &p) {
                return p.kind == TemplatePlaceholder::Kind::ArgRest && p.index == n;
            }))
            return true;
    }
    return false;
}

// Whether the payload puts the whole body, unescaped, where a JSON value goes: a JSON
// payload whose only arg placeholder is `$$1+`. Only then is the body JSON text: `$$1`
// alone would lose what follows a '|' in a value, a quoted "$1" would take the arguments'
// JSON as a string, and an fn row's argument array takes its args one by one.
bool takesBodyAsRawJson(const Row &row)
{
    const QString payload = payloadOf(row);
    if (TemplateSubstitution::modeForPayload(payload) != TemplateMode::Json)
        return false;
    bool raw = false;
    for (const TemplatePlaceholder &p : TemplateSubstitution::placeholders(payload)) {
        if (p.kind != TemplatePlaceholder::Kind::Arg && p.kind != TemplatePlaceholder::Kind::ArgRest)
            continue;
        if (p.index != 1 || !p.raw || p.kind != TemplatePlaceholder::Kind::ArgRest)
            return false;
        raw = true;
    }
    return raw;
}

// The ARGS line's order when it names every property as a whole word, else none.
QStringList orderFromArgsLine(const QString &args, const QStringList &properties)
{
    QList<std::pair<qsizetype, QString>> found;
    for (const QString &name : properties) {
        const QRegularExpression word(
            u"(?<![A-Za-z0-9_])%1(?![A-Za-z0-9_])"_s.arg(QRegularExpression::escape(name)));
        const QRegularExpressionMatch match = word.match(args);
        if (!match.hasMatch())
            return {};
        found.append({match.capturedStart(), name});
    }
    std::sort(found.begin(), found.end());
    QStringList order;
    for (const auto &entry : found)
        order.append(entry.second);
    return order;
}

// A missing or null argument is an empty arg; a string is its text, anything else its JSON.
QString valueText(const QJsonValue &value)
{
    return value.isNull() || value.isUndefined() ? QString() : JsonValueText::plain(value);
}

std::optional<QString> refuse(QString *error, const QString &message)
{
    if (error)
        *error = message;
    return std::nullopt;
}

} // namespace

std::optional<QJsonObject> McpBodyRule::objectSchemaOf(const Row &row)
{
    const QJsonObject schema = QJsonDocument::fromJson(row.inputSchema.toUtf8()).object();
    const QJsonValue type = schema.value(u"type"_s);
    const bool object = type.isUndefined() ? schema.value(u"properties"_s).isObject() : type == "object"_L1;
    if (!object)
        return std::nullopt;
    return schema;
}

McpBodyRule::Kind McpBodyRule::kindOf(const Row &row)
{
    if (!objectSchemaOf(row))
        return Kind::BodyString;
    return takesBodyAsRawJson(row) ? Kind::Json : Kind::Joined;
}

QStringList McpBodyRule::joinOrder(const Row &row)
{
    // QJsonObject sorts its keys, so the schema's own order is read from its text.
    const QStringList properties = JsonKeyOrder::keysOf(row.inputSchema, u"properties"_s);
    const QStringList fromArgs = orderFromArgsLine(DocLines::parse(row.content).args(), properties);
    return fromArgs.isEmpty() ? properties : fromArgs;
}

std::optional<QString> McpBodyRule::bodyOf(const Row &row, const QJsonObject &arguments, QString *error)
{
    switch (kindOf(row)) {
    case Kind::BodyString: {
        for (auto it = arguments.constBegin(); it != arguments.constEnd(); ++it) {
            if (it.key() != "body"_L1)
                return refuse(error,
                              u"unknown argument '%1': this tool takes one string, 'body'"_s.arg(it.key()));
        }
        const QJsonValue body = arguments.value(u"body"_s);
        if (body.isUndefined())
            return refuse(error, u"argument 'body' is required"_s);
        if (!body.isString())
            return refuse(error, u"argument 'body' must be a string; args are split on '|'"_s);
        return body.toString();
    }
    case Kind::Json:
        return QString::fromUtf8(QJsonDocument(arguments).toJson(QJsonDocument::Compact));
    case Kind::Joined:
        break;
    }
    const QStringList order = joinOrder(row);
    for (auto it = arguments.constBegin(); it != arguments.constEnd(); ++it) {
        if (!order.contains(it.key()))
            return refuse(error,
                          u"unknown argument '%1': this tool takes %2"_s.arg(it.key(), order.join(", "_L1)));
    }
    QStringList values;
    for (qsizetype i = 0; i < order.size(); ++i) {
        const QString value = valueText(arguments.value(order.at(i)));
        const bool last = i == order.size() - 1;
        if (value.contains(u'|') && !(last && takesRestAt(row, int(i) + 1))) {
            return refuse(error, last
                                     ? u"argument '%1' contains '|', which would split it: the template does "
                                       "not take it whole with $%2+"_s.arg(order.at(i))
                                           .arg(i + 1)
                                     : u"argument '%1' contains '|', which would shift every later argument; "
                                       "only the last ('%2') may, when the template takes it with $N+"_s.arg(
                                           order.at(i), order.constLast()));
        }
        values.append(value);
    }
    return values.join(u'|');
}

QString McpBodyRule::describe(const Row &row)
{
    switch (kindOf(row)) {
    case Kind::BodyString:
        return u"Call with {\"body\": \"...\"}: the body is passed as is, and the row splits it into args on '|'."_s;
    case Kind::Json:
        return u"The arguments are sent as one JSON text."_s;
    case Kind::Joined:
        break;
    }
    const QStringList order = joinOrder(row);
    const bool rest = !order.isEmpty() && takesRestAt(row, int(order.size()));
    return u"The arguments are joined with '|' in this order: %1; a missing one is empty. %2"_s.arg(
        order.join(", "_L1),
        rest ? u"Only '%1' may contain '|'."_s.arg(order.constLast()) : u"No argument may contain '|'."_s);
}
