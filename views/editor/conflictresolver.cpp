#include "views/editor/conflictresolver.h"

#include "dispatch/core/storeerror.h"
#include "models/directorydocument.h"
#include "models/rowchangecommand.h"
#include "views/editor/mergedialog.h"

#include <QTimer>

#include <utility>

ConflictResolver::ConflictResolver(QWidget *dialogParent, std::function<bool()> save, QObject *parent)
    : QObject(parent), m_dialogParent(dialogParent), m_save(std::move(save))
{}

MergeDialog *ConflictResolver::dialog() const
{
    return m_dialog;
}

void ConflictResolver::setDocument(DirectoryDocument *document)
{
    if (m_document)
        disconnect(m_document, nullptr, this, nullptr);
    if (m_dialog)
        m_dialog->reject();
    m_document = document;
    if (m_document)
        connect(m_document, &DirectoryDocument::saveFailed, this, &ConflictResolver::onSaveFailed);
}

// Called from inside DirectoryDocument::save(): the next save must wait for it to return.
void ConflictResolver::saveLater()
{
    QTimer::singleShot(0, this, [this] {
        if (m_document && m_document->isModified())
            m_save();
    });
}

void ConflictResolver::onSaveFailed(const StoreError &error)
{
    if (error.kind != StoreError::Kind::Conflict || error.details.isEmpty() || m_dialog)
        return;
    const std::optional<Row> theirs = Row::fromJson(error.details.first().toObject());
    if (!theirs || !m_document->isRowModified(theirs->key))
        return;
    const QString key = theirs->key;
    const std::optional<Row> mine = m_document->row(key);
    if (!mine) {
        // A delete has no fields to pick from: it now deletes their version, on a second Save.
        m_document->rebase(*theirs);
        emit statusMessage(
            tr("%1 was changed on the server since you read it. Your delete is still pending: Save "
               "again to delete their version, or Undo to keep it.")
                .arg(key));
        return;
    }
    RowMerge merge(m_document->baseRow(key), *theirs, *mine);
    if (merge.isEmpty()) {
        m_document->rebase(*theirs);
        saveLater();
        return;
    }
    m_dialog = new MergeDialog(std::move(merge), m_dialogParent);
    m_dialog->setAttribute(Qt::WA_DeleteOnClose);
    m_dialog->setWindowModality(Qt::WindowModal);
    connect(m_dialog, &QDialog::accepted, this, &ConflictResolver::applyMerge);
    connect(m_dialog, &QDialog::rejected, this, [this, key] {
        m_dialog = nullptr;
        emit statusMessage(tr("Your edits to %1 are kept, unsaved. Save again to merge them.").arg(key));
    });
    m_dialog->open();
    emit mergeOffered(m_dialog);
}

void ConflictResolver::applyMerge()
{
    // The dialog closes itself; a conflict on the next save may need a new one.
    MergeDialog *dialog = std::exchange(m_dialog, nullptr);
    if (!m_document || !dialog)
        return;
    const RowMerge &merge = dialog->merge();
    const QString key = merge.key();
    m_document->rebase(merge.theirs());
    const std::optional<Row> mine = m_document->row(key);
    const Row merged = merge.merged();
    if (mine && *mine != merged)
        m_document->undoStack()->push(new RowChangeCommand(
            m_document, {{key, mine, merged}}, tr("Merge %1 with the server's version").arg(key)));
    emit statusMessage(tr("Merged %1; saving it over the server's version.").arg(key));
    saveLater();
}
