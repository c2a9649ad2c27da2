#include "views/editor/textsync.h"

#include <QLineEdit>
#include <QPlainTextEdit>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>

namespace TextSync {

void setText(QLineEdit *edit, const QString &text)
{
    if (edit->text() == text)
        return;
    const int position = edit->cursorPosition();
    edit->setText(text);
    edit->setCursorPosition(qMin(position, int(text.size())));
}

QString plainText(const QPlainTextEdit *edit)
{
    QString text = edit->document()->toRawText();
    text.replace(QChar::ParagraphSeparator, u'\n');
    return text;
}

bool usesCrLf(const QString &text)
{
    return text.contains(u"\r\n");
}

QString toEditorLineEnds(const QString &text)
{
    return usesCrLf(text) ? QString(text).replace(QStringLiteral("\r\n"), QStringLiteral("\n")) : text;
}

QString fromEditorLineEnds(const QString &text, bool crLf)
{
    return crLf ? QString(text).replace(u'\n', QStringLiteral("\r\n")) : text;
}

void setText(QPlainTextEdit *edit, const QString &text)
{
    const QString old = plainText(edit);
    if (old == text)
        return;
    // Common prefix and suffix (the suffix not overlapping the prefix) bound the change.
    const qsizetype limit = qMin(old.size(), text.size());
    qsizetype prefix = 0;
    while (prefix < limit && old[prefix] == text[prefix])
        ++prefix;
    qsizetype suffix = 0;
    while (suffix < limit - prefix && old[old.size() - 1 - suffix] == text[text.size() - 1 - suffix])
        ++suffix;

    QTextCursor change(edit->document());
    change.setPosition(int(prefix));
    change.setPosition(int(old.size() - suffix), QTextCursor::KeepAnchor);
    change.insertText(text.mid(prefix, text.size() - prefix - suffix));
}

} // namespace TextSync
