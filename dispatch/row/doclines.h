#pragma once

#include <QList>
#include <QString>
#include <QStringList>
#include <QStringView>

#include <optional>

// One documentation line of a row's content: a line whose first non-blank character is '#'.
struct DocLine
{
    enum class Tag {
        None, // no tag: the description when it comes first, else free text
        What, // # WHAT:
        WhenToUse, // # WHEN_TO_USE:
        Args, // # ARGS:
        Example, // # EX:
        Output, // # OUTPUT:
    };

    Tag tag = Tag::None;
    QString text; // after '#' and the tag, trimmed, with its continuation lines appended
    int line = 0; // 1-based line number of the '#' line in the content
};

// The parts of an `# EX: [KEY]body[/KEY]` line.
struct DocExample
{
    QString key;
    QString body; // the invocation body, which may itself hold "[REPLY]…[/REPLY]"
};

// stripDocs and the documentation a row's content carries (SPEC §2).
//
// A tag is case-sensitive and follows the '#' after optional blanks. A line with no tag
// whose '#' is followed by two or more blanks, directly below another doc line, continues
// that line: its text is appended with one space (BLOOIO_FINISH wraps its description
// this way). A blank line or a payload line in between ends the run.
class DocLines final
{
public:
    // The payload: content without its doc lines, then without leading and trailing blank
    // lines. Nothing else is normalised: kept lines keep their own "\n" or "\r\n", indentation
    // and trailing blanks; only the last kept line loses its terminator.
    static QString stripDocs(const QString &content);
    static DocLines parse(const QString &content);
    static bool isDocLine(QStringView line);
    // Only the whole text counts: "[KEY]" at the start and "[/KEY]" of the same key at the
    // end, so a body holding other [X]…[/X] pairs, or even the same key's, stays intact.
    static std::optional<DocExample> parseExample(QStringView text);

    const QList<DocLine> &lines() const { return m_lines; }
    QList<DocLine> tagged(DocLine::Tag tag) const;
    std::optional<DocLine> first(DocLine::Tag tag) const;
    const QString &payload() const { return m_payload; }

    // The first WHAT line, else the first doc line with text when it has no tag (NOW's
    // form). A tagged first line means there is no description.
    std::optional<DocLine> descriptionLine() const;
    QString description() const;
    QString whenToUse() const;
    QString args() const;
    QStringList examples() const;
    QString output() const;
    // Untagged doc lines other than the one serving as the description.
    QList<DocLine> otherLines() const;

private:
    static QString walk(QStringView content, QList<DocLine> *docs);

    QList<DocLine> m_lines;
    QString m_payload;
};
