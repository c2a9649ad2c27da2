#pragma once

#include <QList>
#include <QString>

// Which lines of a text an edit removed and added, for showing a long value's change
// (a row's content) line by line instead of as two walls of text.
class LineDiff final
{
public:
    enum class Kind { Same, Removed, Added };
    struct Line
    {
        Kind kind = Kind::Same;
        QString text;

        bool operator==(const Line &other) const { return kind == other.kind && text == other.text; }
    };

    // The lines of `before` and `after` in order, each kept, removed or added; a change
    // within a stretch lists its removed lines before its added ones.
    static QList<Line> compare(const QString &before, const QString &after);

private:
    static void compareMiddle(const QStringList &before, const QStringList &after, QList<Line> *out);
};
