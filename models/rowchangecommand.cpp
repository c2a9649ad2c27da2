#include "models/rowchangecommand.h"

#include "models/directorydocument.h"

RowChangeCommand::RowChangeCommand(DirectoryDocument *document, QList<Change> changes, const QString &text,
                                   const QString &mergeField)
    : m_document(document), m_changes(std::move(changes)), m_mergeField(mergeField)
{
    setText(text);
}

void RowChangeCommand::undo()
{
    QList<DirectoryDocument::DraftState> states;
    states.reserve(m_changes.size());
    for (auto it = m_changes.crbegin(); it != m_changes.crend(); ++it)
        states.append({it->key, it->before});
    m_document->applyDrafts(states);
}

void RowChangeCommand::redo()
{
    QList<DirectoryDocument::DraftState> states;
    states.reserve(m_changes.size());
    for (const Change &change : m_changes)
        states.append({change.key, change.after});
    m_document->applyDrafts(states);
}

int RowChangeCommand::id() const
{
    return m_mergeField.isEmpty() ? -1 : FieldEditId;
}

bool RowChangeCommand::mergeWith(const QUndoCommand *other)
{
    const auto *next = static_cast<const RowChangeCommand *>(other);
    if (next->m_mergeField != m_mergeField || next->m_changes.size() != 1 || m_changes.size() != 1
        || next->m_changes.first().key != m_changes.first().key)
        return false;
    m_changes.first().after = next->m_changes.first().after;
    return true;
}

QStringList RowChangeCommand::keys() const
{
    QStringList keys;
    for (const Change &change : m_changes)
        keys << change.key;
    return keys;
}
