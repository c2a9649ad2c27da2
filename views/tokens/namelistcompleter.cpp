#include "views/tokens/namelistcompleter.h"

#include <QAbstractItemView>
#include <QLineEdit>
#include <QStringListModel>

NameListCompleter::NameListCompleter(QLineEdit *edit)
    : QCompleter(edit), m_edit(edit), m_names(new QStringListModel(this))
{
    setModel(m_names);
    setCaseSensitivity(Qt::CaseInsensitive);
    setCompletionMode(QCompleter::PopupCompletion);
    // setWidget, not QLineEdit::setCompleter: the edit would then complete its whole text.
    setWidget(edit);
    connect(edit, &QLineEdit::textEdited, this, &NameListCompleter::offer);
    connect(this, qOverload<const QString &>(&QCompleter::activated), this, &NameListCompleter::insertName);
}

void NameListCompleter::setNames(const QStringList &names)
{
    m_names->setStringList(names);
}

std::pair<qsizetype, qsizetype> NameListCompleter::currentItem() const
{
    const QString text = m_edit->text();
    const qsizetype cursor = m_edit->cursorPosition();
    const qsizetype start = cursor > 0 ? text.lastIndexOf(u',', cursor - 1) + 1 : 0;
    const qsizetype comma = text.indexOf(u',', cursor);
    const qsizetype end = comma < 0 ? text.size() : comma;
    return {start, end - start};
}

void NameListCompleter::offer()
{
    const auto [start, length] = currentItem();
    // What is typed of the item so far: from its start to the cursor.
    const QString prefix = m_edit->text().mid(start, m_edit->cursorPosition() - start).trimmed();
    setCompletionPrefix(prefix);
    if (prefix.isEmpty() || completionCount() == 0) {
        popup()->hide();
        return;
    }
    complete();
}

void NameListCompleter::insertName(const QString &name)
{
    const auto [start, length] = currentItem();
    QString text = m_edit->text();
    const QString item = start > 0 ? u' ' + name : name;
    text.replace(start, length, item);
    m_edit->setText(text);
    m_edit->setCursorPosition(int(start + item.size()));
}
