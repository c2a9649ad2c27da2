#pragma once

#include <QJsonDocument>
#include <QString>

// Parses JSON text and, when it fails, says where: the editor underlines the spot and
// the CLI prints it.
struct JsonTextCheck
{
    bool ok = true;
    QJsonDocument document;
    QString message; // "line 2, column 7: unterminated string"
    int offset = -1; // character offset of the error in the text
    int line = 0; // 1-based
    int column = 0; // 1-based

    static JsonTextCheck parse(const QString &text);
};
