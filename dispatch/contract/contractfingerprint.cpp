#include "dispatch/contract/contractfingerprint.h"

#include "dispatch/json/canonicaljson.h"
#include "dispatch/json/jsonsyntaxcheck.h"
#include "dispatch/row/doclines.h"
#include "dispatch/row/row.h"

#include <QCryptographicHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonParseError>

using namespace Qt::StringLiterals;

namespace {

// A null QString becomes a JSON null in a QJsonValue; the fingerprint wants "" for it.
QString text(const QString &column)
{
    return column.isNull() ? u""_s : column;
}

} // namespace

QJsonObject ContractFingerprint::fieldsOf(const Row &row)
{
    const QString content = text(row.content);
    return QJsonObject{
        {u"key"_s, text(row.key)},
        {u"type"_s, text(row.type)},
        {u"runner"_s, text(row.runner)},
        {u"category"_s, text(row.category)},
        {u"target"_s, text(row.target)},
        {u"description"_s, text(DocLines::parse(content).description())},
        {u"payload"_s, text(DocLines::stripDocs(content))},
        {u"input_schema"_s, canonicalSchema(text(row.inputSchema))},
        {u"auth"_s, text(row.auth)},
        {u"includes"_s, text(row.includes)},
        {u"allowed_categories"_s, text(row.allowedCategories)},
        {u"risk"_s, row.sensitive ? u"high"_s : u"low"_s},
        {u"enabled"_s, row.enabled},
    };
}

QString ContractFingerprint::of(const Row &row)
{
    const QByteArray canonical = CanonicalJson::serialize(fieldsOf(row));
    return QString::fromLatin1(QCryptographicHash::hash(canonical, QCryptographicHash::Sha256).toHex());
}

QString ContractFingerprint::canonicalSchema(const QString &text)
{
    // Qt's parser is laxer than JSON (it takes `.5` or raw control characters), so the
    // strict check decides what counts as JSON; text only Qt would accept stays as it is.
    if (!JsonSyntaxCheck::isValid(text))
        return text;
    // QJsonDocument parses only objects and arrays; wrapping lets a scalar schema through too.
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson((u'[' + text + u']').toUtf8(), &error);
    if (error.error != QJsonParseError::NoError || !document.isArray())
        return text; // beyond what Qt can hold (nesting depth): hashed as text
    return QString::fromUtf8(CanonicalJson::serialize(document.array().at(0)));
}
