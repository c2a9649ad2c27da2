#pragma once

class QLineEdit;
class QPlainTextEdit;
class QString;

// Puts a value into an editor when the document changed underneath it (undo, redo, a
// rename). Equal text is left alone, so the cursor and selection of the user typing
// stay exactly where they are; different text replaces only the part that differs, so
// the cursor keeps its place in the unchanged text around it.
namespace TextSync {

void setText(QLineEdit *edit, const QString &text);
void setText(QPlainTextEdit *edit, const QString &text);

// The editor's text exactly as typed: QPlainTextEdit::toPlainText() would turn
// non-breaking spaces into plain ones and so change a row nobody meant to change.
QString plainText(const QPlainTextEdit *edit);

// Editors hold '\n' line ends only. Text stored with "\r\n" is shown with '\n' and gets
// "\r\n" back when edited, so editing a row never rewrites its line ends as a side effect.
bool usesCrLf(const QString &text);
QString toEditorLineEnds(const QString &text);
QString fromEditorLineEnds(const QString &text, bool crLf);

} // namespace TextSync
