#include "dispatch/json/jsontextcheck.h"

#include "dispatch/core/textposition.h"

#include <QJsonParseError>

JsonTextCheck JsonTextCheck::parse(const QString &text)
{
    JsonTextCheck check;
    const QByteArray utf8 = text.toUtf8();
    QJsonParseError error;
    check.document = QJsonDocument::fromJson(utf8, &error);
    if (error.error == QJsonParseError::NoError)
        return check;

    check.ok = false;
    // QJsonParseError counts bytes of UTF-8; the editor counts characters.
    const QString before = QString::fromUtf8(utf8.left(error.offset));
    const TextPosition position = TextPosition::at(before, before.size());
    check.offset = position.offset;
    check.line = position.line;
    check.column = position.column;
    check.message = position.describe(error.errorString());
    return check;
}
