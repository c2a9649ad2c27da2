#pragma once

#include <QString>
#include <QStringView>

// Where in a text something went wrong, as editors count it: characters, 1-based lines
// and columns. Every parser error the app shows is phrased through this one place.
struct TextPosition
{
    int offset = 0;
    int line = 1;
    int column = 1;

    static TextPosition at(QStringView text, qsizetype offset)
    {
        const QStringView before = text.left(offset);
        return {int(before.size()), int(before.count(u'\n')) + 1,
                int(before.size() - before.lastIndexOf(u'\n'))};
    }
    // "line 2, column 7: unterminated string"
    QString describe(const QString &reason) const
    {
        return QStringLiteral("line %1, column %2: %3").arg(line).arg(column).arg(reason);
    }
};
