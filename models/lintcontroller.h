#pragma once

#include "directoryindex.h"
#include "lintfinding.h"
#include "saveexplainer.h"

#include <QFutureWatcher>
#include <QObject>
#include <QPointer>
#include <QSet>

#include <optional>

class DirectoryDocument;
class LintRun;
class LintState;
class QTimer;

// Keeps the open document's hygiene findings current: lintAll() lints every row in the
// background (LintRun) and paints the table's lint column when done; after an edit only
// the edited rows and the rows that reference them (flows, includes) are re-linted,
// against a DirectoryIndex kept in step with the drafts. It also tracks what the contract
// documents of the whole registry cost (SPEC §9), since that needs the same read of
// every row. The index and the registry total are built on the pool too; only reading
// the rows happens here, because the store's connection belongs to this thread. One
// controller serves every document the window opens.
class LintController final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(LintController)

public:
    explicit LintController(QObject *parent = nullptr);
    ~LintController() override;

    // Forgets the old document's findings; call lintAll() to lint the new one.
    void setDocument(DirectoryDocument *document);
    DirectoryDocument *document() const;
    LintState *state() const { return m_state; }
    const DirectoryIndex &index() const { return m_index; }

    void lintAll();
    // Lints everything once the document has finished loading, when it holds at most
    // `maxRows` rows: reading every row happens on this thread, so a very large directory
    // waits for the panel's Lint All instead of freezing the window as it opens.
    void lintAllWhenLoaded(int maxRows);
    void cancel();
    bool isRunning() const { return m_running; }
    // Edits are re-linted after this quiet time (ms), so typing is not slowed by them.
    void setRelintDelay(int milliseconds);

    // What saving the document now would refuse, and the message explaining it.
    QList<SaveRefusal> explainSave();
    QString registryTotalText() const;

signals:
    void started();
    void progress(int done, int total);
    void finished();
    void cancelled();
    // "Contract registry: 1.9 MB · ~480k tokens", for the status bar.
    void registryTotalChanged(const QString &text);

private:
    void replaceRun(bool localEngine);
    void ensureIndex();
    void onIndexBuilt();
    void startRegistryTotal();
    void readAll(QList<Row> *rows);
    void onRowChanged(const QString &key);
    void onRunFinished(const QHash<QString, QList<LintFinding>> &findingsByKey);
    void relintPending();
    void relint(const QSet<QString> &changed);
    void noteContractBytes(const QString &key);
    void refreshIndex(const QString &key);
    void emitRegistryTotal();

    QPointer<DirectoryDocument> m_document;
    LintState *m_state;
    LintRun *m_run = nullptr;
    QTimer *m_relintTimer;
    DirectoryIndex m_index;
    bool m_indexReady = false;
    bool m_localEngine = true;
    bool m_running = false;
    QList<Row> m_snapshot; // what the running lint-all read, until the registry is summed
    QFutureWatcher<DirectoryIndex> m_indexWatcher;
    QFutureWatcher<qint64> m_registryWatcher;
    QSet<QString> m_pending; // edited, waiting for the quiet time
    QSet<QString> m_changedDuringRun; // edited after the run's snapshot was taken
    std::optional<QHash<QString, QList<LintFinding>>> m_waitingResults; // a run that beat its index
    // Registry cost: the total when every row was read, plus each edited row's change
    // since (its bytes then and now), so a keystroke never re-renders the registry.
    qint64 m_registryBytes = -1;
    QHash<QString, qint64> m_bytesAtRead;
    QHash<QString, qint64> m_bytesNow;
};
