#pragma once

#include <QObject>
#include <QPointer>

#include <functional>

class DirectoryDocument;
class MergeDialog;
class QWidget;
struct StoreError;

// Turns a save refused as a Conflict (someone changed the row since this window read it:
// a 412, or a changed updated_at found on re-reading) into a merge. The refusal carries
// their row; with the unsaved edit and the row as read, MergeDialog lets the user pick
// per field. Apply rebases the draft on their version, records the merged row as one
// undoable edit and saves again (checked against their updated_at, so a third writer is
// caught too). Cancel leaves the edit pending. A conflict where both sides hold the same
// values (a write that went through before a failure) is settled without asking.
class ConflictResolver final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ConflictResolver)

public:
    ConflictResolver(QWidget *dialogParent, std::function<bool()> save, QObject *parent = nullptr);

    void setDocument(DirectoryDocument *document);
    // The merge dialog on screen, if any.
    MergeDialog *dialog() const;

signals:
    void statusMessage(const QString &message);
    // A merge dialog opened (for tests and the window).
    void mergeOffered(MergeDialog *dialog);

private:
    void onSaveFailed(const StoreError &error);
    void applyMerge();
    void saveLater();

    QWidget *m_dialogParent;
    std::function<bool()> m_save;
    QPointer<DirectoryDocument> m_document;
    QPointer<MergeDialog> m_dialog;
};
