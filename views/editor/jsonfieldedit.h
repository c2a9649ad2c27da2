#pragma once

#include <QWidget>

class QLabel;
class QPlainTextEdit;

// A small plain-text editor for a JSON-valued column (input_schema, examples) that checks
// the text as it is typed: a parse error is shown under the field with its line and
// column, and the offending character gets a red wavy underline. Empty text is valid
// (the column is simply unset). Structural problems the engine finds in valid JSON
// ("must be an array") arrive through setProblem() and show in the same place.
class JsonFieldEdit final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(JsonFieldEdit)

public:
    explicit JsonFieldEdit(QWidget *parent = nullptr);

    QString text() const;
    // Shows `text` without emitting edited(); see TextSync for what happens to the cursor.
    void setText(const QString &text);
    // Replaces the whole text and puts the cursor at the start: a different row.
    void resetText(const QString &text);
    void setPlaceholderText(const QString &text);
    void setVisibleLines(int lines);

    void setProblem(const QString &problem);
    // The message under the field: the parse error, else the problem, else empty.
    QString message() const;
    // Character offset of the parse error, or -1.
    int errorOffset() const { return m_errorOffset; }

    QPlainTextEdit *editor() const { return m_edit; }

signals:
    void edited(const QString &text);

private:
    void recheck();
    void showMessage();

    QPlainTextEdit *m_edit;
    QLabel *m_message;
    QString m_parseError;
    QString m_problem;
    int m_errorOffset = -1;
    bool m_settingText = false;
    bool m_crLf = false; // the shown text was stored with "\r\n" line ends
};
