#pragma once

#include "dispatch/store/directorychanges.h"
#include "dispatch/store/directorystore.h"

#include <QHash>
#include <QMap>
#include <QObject>
#include <QSet>
#include <QUndoStack>

#include <functional>
#include <memory>
#include <optional>

class ChangeFeedPoller;
class CategoryCountModel;
class ContentSearch;
class DirectoryTableModel;
class RowReader;
class StoreWriter;
struct SaveDraft;

// One open directory as the GUI edits it: the store, the table and category models, the
// unsaved drafts and the undo stack. Every edit is an undo command that changes a draft;
// save() writes all drafts to the store in one transaction, revert() drops them. A draft
// that ends up equal to the stored row (undo after save, say) stops being a change.
//
// A store with round trips (a server) is never called on the GUI thread. The document
// then answers from what it holds: drafts, the table's summaries (contains, isStored, a
// free key) and the rows it last read, fresh while the summary carries their updated_at.
// A row it does not hold is fetched once in the background: row() answers nullopt with
// isLoading() true, and rowChanged() follows when it arrives. save() starts the writes on
// a worker and returns; saved() or saveFailed() follows, and edits typed meanwhile stay
// drafts of the version just written.
class DirectoryDocument final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(DirectoryDocument)

public:
    explicit DirectoryDocument(std::shared_ptr<DirectoryStore> store, QObject *parent = nullptr);
    ~DirectoryDocument() override;

    StoreError load();
    // The GUI's way to open: the first rows paint at once, the rest arrive off the GUI
    // thread (tableModel()->loadFinished).
    StoreError loadProgressively();
    // View → Reload: the rows read again from the store, at once. Drafts and the undo
    // history stay (shown over the new rows); a row changed under a draft is the usual
    // conflict when it is saved.
    StoreError reload();

    DirectoryStore &store() const { return *m_store; }
    std::shared_ptr<DirectoryStore> sharedStore() const { return m_store; }
    DirectoryTableModel *tableModel() const { return m_table; }
    CategoryCountModel *categoryModel() const { return m_categories; }
    ContentSearch *contentSearch() const { return m_contentSearch; }
    QUndoStack *undoStack() const { return m_undo; }
    // Finds writes made elsewhere (another process, owner or agent) and shows them.
    ChangeFeedPoller *changeFeed() const { return m_feed; }

    // The row as the user currently sees it: the draft when there is one, else the stored
    // row; nullopt when there is no such row (or it is deleted in a draft).
    std::optional<Row> row(const QString &key) const;
    bool contains(const QString &key) const;
    // Whether the row exists in the store (its key can no longer change).
    bool isStored(const QString &key) const;
    // The row is being read from the server; its summary is all there is yet.
    bool isLoading(const QString &key) const;
    // Why the row could not be read (the server is away and it was never read), or empty.
    QString loadError(const QString &key) const;
    std::optional<RowSummary> summary(const QString &key) const;
    // Reads going on in the background, for the status bar.
    int readsInFlight() const;

    bool isModified() const { return !m_drafts.isEmpty(); }
    bool isRowModified(const QString &key) const { return m_drafts.contains(key); }
    QStringList modifiedKeys() const { return m_drafts.keys(); }
    // Every draft as the save would write it, for SaveExplainer.
    QList<SaveDraft> saveDrafts() const;

    // Edits; each pushes one undo command. Field edits typed in a row merge into one.
    void setField(const QString &key, const QString &column, const QVariant &value);
    QString createRow(const QString &type);
    QString duplicateRow(const QString &key);
    void renameRow(const QString &key, const QString &newKey); // unsaved new rows only
    void deleteRows(const QStringList &keys);
    void setEnabled(const QStringList &keys, bool enabled);
    // Puts a saved version of a row (the `after` of event-log entry `versionSeq`) back as
    // the row's draft: one undoable edit, gated on save like any other and logged there as
    // a `restore` of that version while the draft still holds it. False when the row is
    // not here or already holds those values.
    bool restoreVersion(const Row &version, qint64 versionSeq);

    // Writes every draft, all or nothing (a server: in order, stopping at the first
    // failure). On failure the drafts and the undo history stay. On a server the result is
    // none() once the writes have started, and saved() or saveFailed() tells the end.
    StoreError save();
    bool isSaving() const;
    bool isRowSaving(const QString &key) const { return m_saving.contains(key); }
    // Stops a save on a server before its next request is sent. A write already sent may
    // still land; saveFailed() then names what was written and what was not.
    void cancelSave();
    // The row as this document read it from the store: what a draft of `key` was edited
    // from (nullopt: a new row), or the stored row when there is no draft.
    std::optional<Row> baseRow(const QString &key) const;
    // Someone else's write made `stored` the row in the store (a conflict the user merged):
    // the draft of its key is kept but now counts as an edit of `stored`, so the next
    // save is checked against their version. The draft goes if it now equals `stored`.
    void rebase(const Row &stored);
    void revert();

    // The primitive every undo command uses: make each key look like its state (nullopt:
    // absent), with one table update for the whole batch.
    struct DraftState
    {
        QString key;
        std::optional<Row> state;
    };
    void applyDrafts(const QList<DraftState> &states);

signals:
    void rowChanged(const QString &key);
    void rowRenamed(const QString &oldKey, const QString &newKey);
    void modifiedChanged(bool modified);
    void savingChanged(bool saving);
    void readsInFlightChanged(int reads);
    void saved();
    // save() failed; the drafts are all still there (a server to retry, a conflict to merge).
    void saveFailed(const StoreError &error);
    // Reading the store failed (a locked or damaged file): the document shows what it
    // had; the window says why.
    void readFailed(const QString &message);
    // Rows created, changed or deleted elsewhere are now shown (drafts are left as they are).
    void changedElsewhere(const QStringList &keys);

private:
    struct Draft
    {
        std::optional<Row> stored; // as in the store (nullopt: not there)
        std::optional<Row> current; // as edited (nullopt: deleted)
    };

    std::optional<Row> storedRow(const QString &key) const;
    // The stored row as far as the document knows it without asking a server.
    std::optional<Row> heldRow(const QString &key) const;
    void reportReadFailure(const StoreError &error) const;
    void onFetched(const QString &key, const std::optional<Row> &row);
    void applyOutsideChanges(const DirectoryChanges &changes);
    void onFetchFailed(const QString &key, const StoreError &error);
    // Runs `then` with the current rows of `keys`, at once or when a server answered.
    void withCurrentRows(const QStringList &keys, std::function<void(const QHash<QString, Row> &)> then);
    ChangeSet pendingChanges() const;
    void finishLocalSave();
    void finishRemoteSave(const QMap<QString, Draft> &sent, const StoreError &error,
                          const QList<WriteOutcome> &written);
    // The current row of each key that has one, fetching undrafted rows in one query.
    QHash<QString, Row> currentRows(const QStringList &keys) const;
    QHash<QString, Row> storedRows(const QStringList &keys) const;
    void showDraftsInTable();
    QString freeKey(const QString &base) const;
    void pushChange(const QString &key, const std::optional<Row> &after, const QString &text,
                    const QString &mergeField = {});

    std::shared_ptr<DirectoryStore> m_store;
    DirectoryTableModel *m_table;
    CategoryCountModel *m_categories;
    ContentSearch *m_contentSearch;
    QUndoStack *m_undo;
    ChangeFeedPoller *m_feed;
    QMap<QString, Draft> m_drafts;
    struct Restore
    {
        qint64 versionSeq = 0;
        Row row; // the draft the restore made
    };
    QHash<QString, Restore> m_restores; // by key: the last version restored
    // Only for a store with round trips.
    RowReader *m_reader = nullptr;
    StoreWriter *m_writer = nullptr;
    QSet<QString> m_saving;
    // The server did not answer the last read: rows already read answer as last read, so
    // an edit made meanwhile becomes a draft of that version (checked against its
    // updated_at when saved).
    bool m_readsFailing = false;
    QHash<QString, QString> m_loadErrors;
    // Found while the table was still being read: applied over it once it is in.
    QList<DirectoryChanges> m_changesDuringLoad;
};
