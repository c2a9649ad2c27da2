#include "views/editor/jsonfieldedit.h"

#include "dispatch/json/jsontextcheck.h"
#include "views/editor/textsync.h"

#include <QFontDatabase>
#include <QLabel>
#include <QPlainTextEdit>
#include <QScopedValueRollback>
#include <QTextBlock>
#include <QVBoxLayout>

JsonFieldEdit::JsonFieldEdit(QWidget *parent)
    : QWidget(parent), m_edit(new QPlainTextEdit(this)), m_message(new QLabel(this))
{
    m_edit->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_edit->setTabChangesFocus(true);
    // Undo belongs to the document's stack, which knows about every field.
    m_edit->setUndoRedoEnabled(false);
    m_edit->setLineWrapMode(QPlainTextEdit::NoWrap);
    setFocusProxy(m_edit);

    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_message->setStyleSheet(QStringLiteral("color: #b3261e;"));
    m_message->hide();

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(m_edit);
    layout->addWidget(m_message);

    setVisibleLines(4);
    connect(m_edit, &QPlainTextEdit::textChanged, this, [this] {
        recheck();
        if (!m_settingText)
            emit edited(text());
    });
}

QString JsonFieldEdit::text() const
{
    return TextSync::fromEditorLineEnds(TextSync::plainText(m_edit), m_crLf);
}

void JsonFieldEdit::setText(const QString &text)
{
    const QScopedValueRollback guard(m_settingText, true);
    m_crLf = TextSync::usesCrLf(text);
    TextSync::setText(m_edit, TextSync::toEditorLineEnds(text));
}

void JsonFieldEdit::resetText(const QString &text)
{
    const QScopedValueRollback guard(m_settingText, true);
    m_crLf = TextSync::usesCrLf(text);
    if (this->text() != text)
        m_edit->setPlainText(TextSync::toEditorLineEnds(text));
    recheck();
}

void JsonFieldEdit::setPlaceholderText(const QString &text)
{
    m_edit->setPlaceholderText(text);
}

void JsonFieldEdit::setVisibleLines(int lines)
{
    const QFontMetrics metrics(m_edit->font());
    const int frame = 2 * m_edit->frameWidth() + int(m_edit->document()->documentMargin() * 2);
    m_edit->setFixedHeight(metrics.lineSpacing() * lines + frame);
}

void JsonFieldEdit::setProblem(const QString &problem)
{
    if (problem == m_problem)
        return;
    m_problem = problem;
    showMessage();
}

QString JsonFieldEdit::message() const
{
    return m_parseError.isEmpty() ? m_problem : m_parseError;
}

void JsonFieldEdit::recheck()
{
    const QString current = text();
    JsonTextCheck check;
    if (!current.trimmed().isEmpty())
        check = JsonTextCheck::parse(current);
    m_parseError = check.ok ? QString() : check.message;
    m_errorOffset = check.ok ? -1 : check.offset;

    QList<QTextEdit::ExtraSelection> marks;
    if (!check.ok) {
        // Qt reports the offset just past the token it choked on: mark that token's last
        // character, stepping back over white space so the mark is visible.
        const int length = int(current.size());
        int at = qBound(0, check.offset - 1, qMax(0, length - 1));
        while (at > 0 && current[at].isSpace())
            --at;
        QTextEdit::ExtraSelection mark;
        mark.cursor = QTextCursor(m_edit->document());
        mark.cursor.setPosition(at);
        mark.cursor.setPosition(qMin(at + 1, length), QTextCursor::KeepAnchor);
        mark.format.setUnderlineStyle(QTextCharFormat::WaveUnderline);
        mark.format.setUnderlineColor(QColor(0xb3, 0x26, 0x1e));
        mark.format.setBackground(QColor(0xb3, 0x26, 0x1e, 40));
        marks.append(mark);
    }
    m_edit->setExtraSelections(marks);
    showMessage();
}

void JsonFieldEdit::showMessage()
{
    const QString text = message();
    m_message->setText(text);
    m_message->setVisible(!text.isEmpty());
}
