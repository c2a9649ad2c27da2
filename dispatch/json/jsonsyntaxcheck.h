#pragma once

#include <QString>
#include <QStringView>

// Strict RFC 8259 syntax, checked without building a document. Qt's parser is more
// lenient (it takes `.5`, `[1.]`, `"\x"` and raw control characters in strings), and a
// payload that only Qt accepts would be refused by the upstream it is sent to; this is
// the check a templated payload must pass before anything is sent.
struct JsonSyntaxCheck
{
    bool ok = true;
    QString message; // "line 1, column 9: expected ',' or '}'"
    int offset = -1; // character offset of the error in the text
    int line = 0; // 1-based
    int column = 0; // 1-based

    // One JSON value of any kind (object, array, string, number, true, false, null),
    // white space allowed around it.
    static JsonSyntaxCheck check(QStringView text);
    // The same verdict without the position; allocates nothing.
    static bool isValid(QStringView text);
};
