#include "dispatch/row/rowjsoncodec.h"

#include "dispatch/json/jsontextcheck.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonParseError>

namespace {

StoreError refuse(int line, const QString &message)
{
    return StoreError::make(StoreError::Kind::Invalid, QStringLiteral("line %1: %2").arg(line).arg(message));
}

// The line each element of the top-level array starts on. QJsonDocument keeps no
// positions, so a light scan of the (already valid) text finds them.
QList<int> elementLines(const QByteArray &json)
{
    QList<int> lines;
    int line = 1;
    int depth = 0;
    bool expectElement = false;
    for (qsizetype i = 0; i < json.size(); ++i) {
        const char c = json.at(i);
        if (c == '\n') {
            ++line;
            continue;
        }
        if (c == ' ' || c == '\t' || c == '\r')
            continue;
        if (depth == 1 && expectElement && c != ']') {
            lines.append(line);
            expectElement = false;
        }
        if (c == '"') {
            for (++i; i < json.size() && json.at(i) != '"'; ++i) {
                if (json.at(i) == '\\')
                    ++i;
            }
        } else if (c == '[' || c == '{') {
            expectElement = ++depth == 1;
        } else if (c == ']' || c == '}') {
            --depth;
        } else if (c == ',' && depth == 1) {
            expectElement = true;
        }
    }
    return lines;
}

} // namespace

StoreResult<QList<Row>> RowJsonCodec::decode(const QByteArray &json, QList<int> *rowLines)
{
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(json, &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        // Parsed again only to place the error in lines and columns.
        const JsonTextCheck check = JsonTextCheck::parse(QString::fromUtf8(json));
        return refuse(check.line, QStringLiteral("not valid JSON at column %1: %2")
                                      .arg(check.column)
                                      .arg(parseError.errorString()));
    }
    if (!document.isArray())
        return refuse(1, QStringLiteral("expected a JSON array of rows"));
    const QJsonArray items = document.array();
    const QList<int> lines = elementLines(json);
    QList<Row> rows;
    rows.reserve(items.size());
    for (qsizetype i = 0; i < items.size(); ++i) {
        const int line = lines.value(i, 1);
        if (!items.at(i).isObject())
            return refuse(line, QStringLiteral("element %1 is not a row object").arg(i + 1));
        QString error;
        const QJsonObject object = items.at(i).toObject();
        std::optional<Row> row = Row::fromJson(object, &error);
        if (!row)
            return refuse(line, QStringLiteral("row %1 ('%2'): %3")
                                    .arg(i + 1)
                                    .arg(object.value(QStringLiteral("key")).toString(), error));
        rows.append(std::move(*row));
    }
    if (rowLines)
        *rowLines = lines;
    return rows;
}

QByteArray RowJsonCodec::encode(const QList<Row> &rows)
{
    QJsonArray items;
    for (const Row &row : rows)
        items.append(row.toJson());
    return QJsonDocument(items).toJson(QJsonDocument::Indented);
}
