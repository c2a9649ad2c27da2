#pragma once

#include "dispatch/lint/rules/directoryindex.h"
#include "dispatch/lint/rules/lintfinding.h"
#include "dispatch/lint/saveexplainer.h"
#include "models/lintstate.h"

#include <QFutureWatcher>
#include <QObject>
#include <QPointer>
#include <QSet>

#include <atomic>
#include <limits>
#include <memory>

class DirectoryDocument;
class LintRun;
class QTimer;

// Keeps the open document's hygiene findings current: lintAll() reads and lints every row
// in the background (LintRun) and paints the table's lint column when done; after an edit
// the edited rows are linted again, and when an edit changes a row's key or edges (flow
// steps, includes), the rows reaching it have their link rules checked again from the
// DirectoryIndex, which is kept in step with the drafts. It also tracks what the contract
// documents of the whole registry cost (SPEC §9), summed on the pool from a batched read
// of its own after each lint-all (from the lint's own read where the store is remote), with
// the edits laid over it. Only the drafts are read on this thread (all rows only when a save is
// explained before any lint-all has finished). One controller serves every document the
// window opens.
class LintController final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(LintController)

public:
    explicit LintController(QObject *parent = nullptr);
    ~LintController() override;

    // Forgets the old document's findings; call lintAll() to lint the new one. The builtin
    // rule runs only where `builtinsAreLocal` (a server may ship other builtins).
    void setDocument(DirectoryDocument *document, bool builtinsAreLocal);
    DirectoryDocument *document() const;
    LintState *state() const { return m_state; }
    const DirectoryIndex &index() const { return m_index; }

    void lintAll();
    // Lints everything once the document has finished loading, when it holds at most
    // `maxRows` rows (by default any number: the rows are read and linted off this thread).
    void lintAllWhenLoaded(int maxRows = std::numeric_limits<int>::max());
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
    void startRegistryTotal();
    void landRegistryTotal(qint64 storedBytes);
    void readAll(QList<Row> *rows);
    void onRowChanged(const QString &key);
    void onRunFinished(const QHash<QString, QList<LintFinding>> &findingsByKey);
    void onRunEnded();
    void relintPending();
    void relint(const QSet<QString> &changed);
    void showLevels(const QHash<QString, LintState::Lint> &levels);
    void noteContractBytes(const QString &key);
    void refreshIndex(const QString &key);
    void emitRegistryTotal();

    QPointer<DirectoryDocument> m_document;
    LintState *m_state;
    LintRun *m_run = nullptr;
    QTimer *m_relintTimer;
    DirectoryIndex m_index;
    bool m_indexReady = false;
    bool m_linted = false; // a lint-all finished: the state holds every row's findings
    bool m_localEngine = true;
    bool m_running = false;
    QFutureWatcher<qint64> m_registryWatcher;
    // A remote lint-all's sum of the stored rows' contracts, so its listing is not read twice.
    std::shared_ptr<std::atomic<qint64>> m_bytesReadByLint;
    QSet<QString> m_pending; // edited, waiting for the quiet time
    QSet<QString> m_changedDuringRun; // edited after the run's snapshot was taken
    // Rows whose key or edges changed in the index since the last re-lint: the rows that
    // reach them need their link rules checked again.
    QSet<QString> m_moved;
    // Registry cost: the total when every row was read, plus each edited row's change
    // since (its bytes then and now), so a keystroke never re-renders the registry.
    qint64 m_registryBytes = -1;
    QHash<QString, qint64> m_bytesAtRead;
    QHash<QString, qint64> m_bytesNow;
};
