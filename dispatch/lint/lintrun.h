#pragma once

#include "dispatch/core/storeerror.h"
#include "dispatch/lint/rules/directoryindex.h"
#include "dispatch/lint/rules/lintfinding.h"
#include "dispatch/row/row.h"

#include <QFutureWatcher>
#include <QHash>
#include <QList>
#include <QObject>
#include <QPromise>
#include <QString>

#include <functional>
#include <memory>

// Lint-all in the background: the rows are a snapshot, linted in parallel with
// QtConcurrent against an index built from the same snapshot, so the directory may keep
// changing while it runs. Reports progress; cancel() stops it without a finished().
//
// Each row is parsed once: batches of rows are linted by the row-local rules on the pool
// as the reader hands them over, and only each row's key and what those rules found are
// kept; the index is built from the edges that pass found, then the rows with edges get the
// link rules. So a run holds a few batches of rows at a time, not the directory. Reading
// happens on the pool too, so a caller on the GUI thread never waits for it.
class LintRun final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(LintRun)

public:
    // Takes the next batch of rows to lint; false when the run was cancelled.
    using Batch = std::function<bool(QList<Row> &&batch)>;
    // Runs on a pool thread: hands every row to lint to `batch`, in batches, and stops
    // when it returns false (DirectoryStore::scanRows fits).
    using Reader = std::function<StoreError(const Batch &batch)>;

    explicit LintRun(bool localEngine = true, QObject *parent = nullptr);
    ~LintRun() override;

    // Starts over with `rows`, one per key; a run still going is cancelled first.
    void start(QList<Row> rows);
    // `expectedRows` sets the progress range; the run lints what `read` hands over.
    void start(Reader read, int expectedRows);
    void cancel();
    bool isRunning() const;

    // The index the finished run built, handed over once (from finished() until the next
    // start()), so that the taker holds the only copy: editing a shared index would copy
    // all of it first.
    DirectoryIndex takeIndex();

signals:
    void progress(int done, int total);
    // The rows with findings; a row that is not there is clean.
    void finished(const QHash<QString, QList<LintFinding>> &findingsByKey);
    void cancelled();
    // The reader failed; the run ends without finished() or cancelled().
    void readFailed(const QString &message);

private:
    struct Outcome;

    // The whole run, on one pool thread that fans the two lint passes out over the pool.
    static void runAll(QPromise<void> &promise, const std::shared_ptr<Outcome> &outcome, const Reader &read,
                       int expectedRows, bool localEngine);
    void onFinished();

    bool m_localEngine = true;
    QFutureWatcher<void> m_watcher;
    std::shared_ptr<Outcome> m_running; // filled by the run in progress
    std::shared_ptr<Outcome> m_outcome; // the finished run's
};
