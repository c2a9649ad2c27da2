#include "views/shell/editactions.h"

#include "dispatch/lint/saveexplainer.h"
#include "dispatch/row/rowschema.h"
#include "models/directorydocument.h"
#include "models/lintcontroller.h"
#include "models/rowchangecommand.h"
#include "views/common/prompter.h"
#include "views/common/rowstext.h"
#include "views/common/typeicons.h"
#include "views/table/directorytableview.h"

#include <QAction>
#include <QIcon>
#include <QMenu>
#include <QUndoGroup>
#include <QUndoStack>

EditActions::EditActions(DirectoryTableView *table, Prompter &prompter, QObject *parent)
    : QObject(parent), m_table(table), m_prompter(prompter), m_undoGroup(new QUndoGroup(this)),
      m_newRowMenu(new QMenu(tr("&New Row"))),
      m_newRow(new QAction(QIcon::fromTheme(QStringLiteral("list-add")), tr("&New Row"), this)),
      m_duplicate(new QAction(QIcon::fromTheme(QStringLiteral("edit-copy")), tr("Dupli&cate"), this)),
      m_delete(new QAction(QIcon::fromTheme(QStringLiteral("edit-delete")), tr("&Delete…"), this)),
      m_enable(new QAction(tr("&Enable"), this)), m_disable(new QAction(tr("D&isable"), this)),
      // A group rather than one stack's actions: the document, and so the stack, is
      // replaced whenever another file is opened, and the actions must follow.
      m_undo(m_undoGroup->createUndoAction(this, tr("&Undo"))),
      m_redo(m_undoGroup->createRedoAction(this, tr("&Redo"))),
      m_save(new QAction(QIcon::fromTheme(QStringLiteral("document-save")), tr("&Save"), this)),
      m_revert(new QAction(QIcon::fromTheme(QStringLiteral("document-revert")), tr("Re&vert"), this)),
      m_cancelSave(new QAction(QIcon::fromTheme(QStringLiteral("process-stop")), tr("Cance&l Save"), this))
{
    for (const QString &type : RowSchema::types()) {
        QAction *create = m_newRowMenu->addAction(TypeIcons::forType(type), tr("%1 row").arg(type));
        create->setObjectName(QStringLiteral("newRow_") + type);
        connect(create, &QAction::triggered, this, [this, type] { createRow(type); });
    }
    m_newRow->setMenu(m_newRowMenu);
    m_newRow->setToolTip(tr("Create a row of the chosen type"));
    connect(m_newRow, &QAction::triggered, this, [this] { createRow(RowSchema::types().first()); });

    m_undo->setIcon(QIcon::fromTheme(QStringLiteral("edit-undo")));
    m_redo->setIcon(QIcon::fromTheme(QStringLiteral("edit-redo")));
    // The menu names the command ("Undo Edit target of NOW"); the toolbar keeps a short,
    // steady label so its buttons do not jump about while typing.
    m_undo->setIconText(tr("Undo"));
    m_redo->setIconText(tr("Redo"));
    m_undo->setShortcut(QKeySequence::Undo);
    // Ctrl+Shift+Z everywhere, whatever else the platform binds to Redo.
    QList<QKeySequence> redoKeys = QKeySequence::keyBindings(QKeySequence::Redo);
    const QKeySequence ctrlShiftZ(Qt::CTRL | Qt::SHIFT | Qt::Key_Z);
    if (!redoKeys.contains(ctrlShiftZ))
        redoKeys.prepend(ctrlShiftZ);
    m_redo->setShortcuts(redoKeys);
    // After the group's own connections: the stack has moved when these run.
    connect(m_undo, &QAction::triggered, this, [this] { showUndoneRow(0); });
    connect(m_redo, &QAction::triggered, this, [this] { showUndoneRow(-1); });
    m_duplicate->setShortcut(Qt::CTRL | Qt::Key_D);
    m_delete->setShortcut(QKeySequence::Delete);
    // Delete acts on the table's rows only; in a text field the key deletes characters.
    m_delete->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    m_table->addAction(m_delete);
    m_enable->setShortcut(Qt::CTRL | Qt::Key_E);
    m_disable->setShortcut(Qt::CTRL | Qt::SHIFT | Qt::Key_E);
    m_save->setShortcut(QKeySequence::Save);

    connect(m_duplicate, &QAction::triggered, this, &EditActions::duplicateSelected);
    connect(m_delete, &QAction::triggered, this, &EditActions::deleteSelected);
    connect(m_enable, &QAction::triggered, this, [this] { setSelectedEnabled(true); });
    connect(m_disable, &QAction::triggered, this, [this] { setSelectedEnabled(false); });
    connect(m_save, &QAction::triggered, this, &EditActions::save);
    connect(m_revert, &QAction::triggered, this, &EditActions::revert);
    m_cancelSave->setObjectName(QStringLiteral("cancelSaveAction"));
    m_cancelSave->setStatusTip(tr("Stop the save that is running before its next request is sent"));
    connect(m_cancelSave, &QAction::triggered, this, &EditActions::cancelSave);
    connect(m_table, &DirectoryTableView::selectedRowsChanged, this, &EditActions::updateActions);
    updateActions();
}

// The menu has no QObject parent (QMenu wants a widget one), so it is ours to delete.
EditActions::~EditActions()
{
    delete m_newRowMenu;
}

void EditActions::setDocument(DirectoryDocument *document)
{
    if (m_document)
        disconnect(m_document, nullptr, this, nullptr);
    m_document = document;
    QUndoStack *stack = m_document ? m_document->undoStack() : nullptr;
    if (stack) {
        m_undoGroup->addStack(stack);
        connect(m_document, &DirectoryDocument::modifiedChanged, this, &EditActions::updateActions);
        connect(m_document, &DirectoryDocument::savingChanged, this, &EditActions::updateActions);
        connect(m_document, &DirectoryDocument::saved, this, &EditActions::onSaved);
        connect(m_document, &DirectoryDocument::saveFailed, this, &EditActions::onSaveFailed);
    }
    m_undoGroup->setActiveStack(stack);
    updateActions();
}

void EditActions::showUndoneRow(int offset)
{
    const QUndoStack *stack = m_undoGroup->activeStack();
    if (!stack || !m_document)
        return;
    const auto *command = dynamic_cast<const RowChangeCommand *>(stack->command(stack->index() + offset));
    if (!command)
        return;
    for (const QString &key : command->keys()) {
        if (m_document->contains(key)) {
            emit undoChangedRow(key);
            return;
        }
    }
}

void EditActions::setLintController(LintController *controller)
{
    m_lint = controller;
}

void EditActions::updateActions()
{
    const bool open = m_document;
    const bool selected = open && m_table->hasSelection();
    const bool modified = open && m_document->isModified();
    m_newRow->setEnabled(open);
    m_newRowMenu->setEnabled(open);
    m_duplicate->setEnabled(selected);
    m_delete->setEnabled(selected);
    m_enable->setEnabled(selected);
    m_disable->setEnabled(selected);
    const bool saving = open && m_document->isSaving();
    m_save->setEnabled(modified && !saving);
    m_revert->setEnabled(modified && !saving);
    m_cancelSave->setEnabled(saving);
}

void EditActions::createRow(const QString &type)
{
    if (!m_document)
        return;
    const QString key = m_document->createRow(type);
    emit rowCreated(key);
}

void EditActions::duplicateSelected()
{
    if (!m_document)
        return;
    QString last;
    for (const QString &key : m_table->selectedKeys())
        last = m_document->duplicateRow(key);
    if (!last.isEmpty())
        emit rowCreated(last);
}

void EditActions::deleteSelected()
{
    const QStringList keys = m_table->selectedKeys();
    if (!m_document || keys.isEmpty() || !m_prompter.confirmDelete(keys))
        return;
    m_document->deleteRows(keys);
    emit statusMessage(
        tr("Deleted %1; Undo brings them back, Save makes it final.").arg(RowsText::rows(int(keys.size()))));
}

void EditActions::setSelectedEnabled(bool enabled)
{
    if (m_document)
        m_document->setEnabled(m_table->selectedKeys(), enabled);
}

bool EditActions::save()
{
    if (!m_document)
        return false;
    emit aboutToSave();
    // Asked before writing: a refused save would only say the same later, and less well.
    if (m_lint && m_lint->document() == m_document) {
        const QList<SaveRefusal> refusals = m_lint->explainSave();
        if (!refusals.isEmpty()) {
            explainRefusal(refusals);
            return false;
        }
    }
    if (m_document->isSaving()) {
        emit statusMessage(tr("A save is already running; Cancel Save stops it."));
        return false;
    }
    m_savingRows = int(m_document->modifiedKeys().size());
    // The outcome arrives as saved() or saveFailed(), at once for a file, later for a server.
    if (m_document->save().isError())
        return false;
    if (m_document->isSaving())
        emit statusMessage(
            tr("Saving %1 to the server… (Cancel Save stops it)").arg(RowsText::rows(m_savingRows)));
    return true;
}

void EditActions::onSaved()
{
    emit statusMessage(tr("Saved %1.").arg(RowsText::rows(m_savingRows)));
}

void EditActions::onSaveFailed(const StoreError &error)
{
    // The drafts and the undo history stay, so the user can fix the row and retry.
    // A server that is gone or refuses the key, and a conflict that carries the other
    // row, are shown in place by the window (offline banner, merge dialog), not here.
    if (error.kind == StoreError::Kind::Unreachable || error.kind == StoreError::Kind::Unauthorized
        || (error.kind == StoreError::Kind::Conflict && !error.details.isEmpty()))
        return;
    if (error.kind == StoreError::Kind::Cancelled) {
        emit statusMessage(tr("Save cancelled: %1. Your edits are kept.").arg(error.message));
        return;
    }
    const QList<SaveRefusal> refusals = SaveExplainer::fromStoreError(
        error, [this](const QString &key) { return m_document->baseRow(key).has_value(); });
    if (refusals.isEmpty())
        m_prompter.showError(tr("Save Failed"), tr("Nothing was saved: %1").arg(error.message));
    else
        explainRefusal(refusals);
}

void EditActions::cancelSave()
{
    if (m_document && m_document->isSaving())
        m_document->cancelSave();
}

void EditActions::explainRefusal(const QList<SaveRefusal> &refusals)
{
    const SaveRefusal &first = refusals.first();
    const QString field = first.findings.isEmpty() ? QString() : first.findings.first().field;
    m_prompter.showError(
        tr("Save Refused"),
        tr("The hygiene rules refuse this save. Nothing was written, and every edit is still here.")
            + QStringLiteral("\n\n") + SaveExplainer::describe(refusals) + QStringLiteral("\n\n")
            + tr("Fix them and save again; the editor now shows %1.").arg(first.key));
    emit fixRequested(first.key, field);
}

void EditActions::revert()
{
    if (!m_document || !m_document->isModified())
        return;
    if (m_prompter.confirmRevert(int(m_document->modifiedKeys().size())))
        m_document->revert();
}
