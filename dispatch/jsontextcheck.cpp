#include "jsontextcheck.h"

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
    check.offset = int(before.size());
    check.line = int(before.count(u'\n')) + 1;
    check.column = int(before.size() - before.lastIndexOf(u'\n'));
    check.message = QStringLiteral("line %1, column %2: %3")
                        .arg(check.line)
                        .arg(check.column)
                        .arg(error.errorString());
    return check;
}
