#pragma once

#include <QObject>
#include <QPointer>

class DirectoryDocument;
class DirectoryTableView;
class LintController;
class Prompter;
class QAction;
class QMenu;
class QUndoGroup;
struct SaveRefusal;
struct StoreError;

// The Edit menu and toolbar: create, duplicate, delete, enable/disable (on every selected
// row at once), undo/redo, save and revert. Each action becomes one document edit, so it
// is undoable; confirmations and errors go through the Prompter. Save asks the hygiene
// gate's question first (with a LintController set): a save the gate would refuse is not
// attempted, and the user reads which rules fail and lands on the first failing field.
// A save to a server runs in the background: the window keeps working, edits typed
// meanwhile stay unsaved drafts, and Cancel Save stops it before its next request.
class EditActions final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(EditActions)

public:
    EditActions(DirectoryTableView *table, Prompter &prompter, QObject *parent = nullptr);
    ~EditActions() override;

    void setDocument(DirectoryDocument *document);
    // Where Save learns what the gate would refuse; without one only the store's own
    // refusal is explained.
    void setLintController(LintController *controller);

    QMenu *newRowMenu() const { return m_newRowMenu; }
    QAction *newRowAction() const { return m_newRow; }
    QAction *duplicateAction() const { return m_duplicate; }
    QAction *deleteAction() const { return m_delete; }
    QAction *enableAction() const { return m_enable; }
    QAction *disableAction() const { return m_disable; }
    QAction *undoAction() const { return m_undo; }
    QAction *redoAction() const { return m_redo; }
    QAction *saveAction() const { return m_save; }
    QAction *revertAction() const { return m_revert; }
    QAction *cancelSaveAction() const { return m_cancelSave; }

    void createRow(const QString &type);
    void duplicateSelected();
    void deleteSelected();
    void setSelectedEnabled(bool enabled);
    // True when the save is done or under way.
    bool save();
    void cancelSave();
    void revert();

signals:
    // A row was created or duplicated; the window shows it and puts the cursor in its key.
    void rowCreated(const QString &key);
    // Emitted before a save writes anything, so editors can commit what is still typed.
    void aboutToSave();
    void statusMessage(const QString &message);
    // A save was refused for hygiene: the window shows the row with the cursor in `field`.
    void fixRequested(const QString &key, const QString &field);
    // An undo or redo changed `key` (the first of its rows still there): the window shows
    // it, so the change is never made out of sight.
    void undoChangedRow(const QString &key);

private:
    void updateActions();
    // `offset` from the stack's index to the command just undone (0) or redone (-1).
    void showUndoneRow(int offset);
    void explainRefusal(const QList<SaveRefusal> &refusals);
    void onSaved();
    void onSaveFailed(const StoreError &error);

    DirectoryTableView *m_table;
    Prompter &m_prompter;
    QPointer<DirectoryDocument> m_document;
    QPointer<LintController> m_lint;
    QUndoGroup *m_undoGroup;
    QMenu *m_newRowMenu;
    QAction *m_newRow;
    QAction *m_duplicate;
    QAction *m_delete;
    QAction *m_enable;
    QAction *m_disable;
    QAction *m_undo;
    QAction *m_redo;
    QAction *m_save;
    QAction *m_revert;
    QAction *m_cancelSave;
    int m_savingRows = 0;
};
