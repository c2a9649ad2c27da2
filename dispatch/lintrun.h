#pragma once

#include "directoryindex.h"
#include "lintfinding.h"
#include "row.h"

#include <QFutureWatcher>
#include <QHash>
#include <QList>
#include <QObject>
#include <QString>

#include <memory>

// Lint-all in the background: the rows are a snapshot, linted in parallel with
// QtConcurrent against an index built from the same snapshot, so the directory may keep
// changing while it runs. Reports progress; cancel() stops it without a finished().
class LintRun final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(LintRun)

public:
    explicit LintRun(bool localEngine = true, QObject *parent = nullptr);
    ~LintRun() override;

    // Starts over; a run still going is cancelled first.
    void start(QList<Row> rows);
    void cancel();
    bool isRunning() const;

signals:
    void progress(int done, int total);
    // Every row's key is present, with an empty list for a clean row.
    void finished(const QHash<QString, QList<LintFinding>> &findingsByKey);
    void cancelled();

private:
    struct Snapshot;

    void onFinished();

    bool m_localEngine = true;
    std::shared_ptr<Snapshot> m_snapshot;
    QFutureWatcher<QList<LintFinding>> m_watcher;
};
