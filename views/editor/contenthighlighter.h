#pragma once

#include <QList>
#include <QStringView>
#include <QSyntaxHighlighter>
#include <QTextCharFormat>

// Colours a row's `content` as the engine reads it (SPEC §2): doc lines (first non-blank
// character `#`) are documentation, their WHAT/WHEN_TO_USE/ARGS/EX/OUTPUT tag in bold;
// in the payload every placeholder form has its own colour, so a `$2+` that should be a
// `$2`, or a `$NAME` left unbound, stands out while typing.
class ContentHighlighter final : public QSyntaxHighlighter
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ContentHighlighter)

public:
    enum class Kind {
        DocLine, // the whole doc line from its `#`
        DocTag, // "WHAT:", "EX:", … inside a doc line
        Arg, // $N
        ArgRest, // $N+
        Unescaped, // $$N, $$N+, $$PREV, $$NAME
        Prev, // $PREV
        Name, // $NAME, a flow binding
    };

    struct Span
    {
        int start = 0;
        int length = 0;
        Kind kind = Kind::DocLine;

        bool operator==(const Span &other) const
        {
            return start == other.start && length == other.length && kind == other.kind;
        }
    };

    explicit ContentHighlighter(QTextDocument *document);

    // What one line gets, in the order the formats are applied (later spans win).
    static QList<Span> spans(QStringView line);
    static QTextCharFormat format(Kind kind);

protected:
    void highlightBlock(const QString &text) override;
};
