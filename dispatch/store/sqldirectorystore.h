#pragma once

#include "dispatch/core/clock.h"
#include "dispatch/lint/rules/directoryindex.h"
#include "dispatch/store/directoryengine.h"
#include "dispatch/store/directorystore.h"
#include "dispatch/store/preparedstatements.h"
#include "dispatch/store/threadreadconnections.h"

#include <QSqlDatabase>
#include <QString>
#include <QThread>

#include <memory>
#include <optional>

class EventLog;

// A directory in a SQL database through QtSql, migrated to the app's schema when opened:
// the embedded SQLite file (SqliteDirectoryEngine) or a PostgreSQL database shared by
// several processes (PostgresDirectoryEngine). Rows, the hygiene gate, the writes and
// their event log are the same on both; what differs is in the engine and the dialect.
class SqlDirectoryStore final : public DirectoryStore
{
public:
    // `location` is a file path, or a postgresql:// URL (PostgresLocation) whose password,
    // if the server wants one, `passwords` may know (KeychainPasswords::lookup()).
    // `Existing` refuses a database with no tables as NotFound instead of making it a
    // directory: a command that only uses one must not turn a mistyped, empty database
    // into one (a file's absence is checked before it is opened).
    enum class Creation { Allowed, Existing };
    static StoreResult<std::shared_ptr<SqlDirectoryStore>> open(const QString &location,
                                                                const DatabasePasswordLookup &passwords = {},
                                                                Creation creation = Creation::Allowed);
    static StoreResult<std::shared_ptr<SqlDirectoryStore>> open(std::unique_ptr<DirectoryEngine> engine,
                                                                Creation creation = Creation::Allowed);
    ~SqlDirectoryStore() override;
    Q_DISABLE_COPY_MOVE(SqlDirectoryStore)

    QString location() const override { return m_path; }

    StoreError scanSummaryViews(const std::function<void(const RowSummaryView &)> &sink,
                                int firstByKey = 0) const override;
    // On the thread that opened the store only: the read runs a statement kept prepared on
    // its own connection.
    StoreResult<Row> row(const QString &key) const override;
    StoreResult<QList<Row>> allRows() const override;
    StoreError scanRows(const RowBatchSink &sink, int batchRows = kScanBatchRows,
                        RowOrder order = RowOrder::ByKey) const override;
    StoreResult<QList<Row>> rows(const QStringList &keys) const override;
    StoreResult<QStringList> keysWithContent(const QString &needle) const override;
    StoreResult<QList<AuthUsage>> authUsage() const override;

    StoreResult<WriteOutcome> create(Row row) override;
    StoreResult<WriteOutcome> replace(Row row, const QString &expectedUpdatedAt = QString()) override;
    StoreResult<WriteOutcome> put(Row row) override;
    StoreResult<WriteOutcome> patch(const QString &key, const QJsonObject &fields,
                                    const QString &expectedUpdatedAt = QString()) override;
    StoreError remove(const QString &key, const QString &expectedUpdatedAt = QString()) override;
    StoreError importRows(const QList<Row> &rows) override;
    StoreError apply(const ChangeSet &changes) override;
    StoreError applyTracked(const ChangeSet &changes, ApplyTracking &tracking) override;
    bool hasRoundTrips() const override { return false; }

    // See SqliteChangeFeed and PostgresChangeFeed.
    StoreResult<DirectoryChanges> changesSince(const QByteArray &cursor) const override;
    int changePollIntervalMs() const override { return m_engine->changePollIntervalMs(); }

    void setActor(const QString &actor) override { m_actor = actor; }
    QString actor() const override { return m_actor; }

    // Stamps `updated_at`, `created_at` and the write's events; the system clock unless set.
    void setClock(std::shared_ptr<const Clock> clock) { m_clock = std::move(clock); }

    // The connection, for components that keep their own tables in the same file.
    QSqlDatabase database() const;
    // Runs `read` on the store's own connection when called from the thread that opened
    // it, else on a read-only connection of the calling thread: QtSql connections are per
    // thread. That one is short-lived, or kept for the thread where the engine says so; a
    // read must then not call this again from inside `read`.
    // For readers of the engine's other tables (the event log, receipts) on any thread.
    StoreError withReadConnection(const std::function<StoreError(QSqlDatabase &)> &read) const;
    // Adds and opens a read-write connection `name` to this directory on the calling
    // thread, for a component that writes from a thread of its own (ReceiptWriter); the
    // caller closes and removes it.
    StoreError openConnection(const QString &name) const { return m_engine->openConnection(name, false); }

private:
    SqlDirectoryStore(std::unique_ptr<DirectoryEngine> engine, QString connectionName);

    // The store's own connection's kept statements, for the reads a call makes every time.
    PreparedStatements &statements() const;
    static QString insertStatement();
    bool exists(const QString &key) const;
    StoreError insertRow(const Row &row);
    StoreError updateRow(const Row &row);
    StoreError markLogging(bool logging);

    // Every public write is one WriteTransaction with its events appended inside it, so
    // a write and its DIRECTORY_MUTATE events commit or vanish together. The *In parts
    // assume that transaction is open, so apply() can compose them. While it is open its
    // row writes are marked as logged, so the outside-write triggers do not count them.
    StoreError inWriteTransaction(const std::function<StoreError(EventLog &)> &work);
    StoreResult<WriteOutcome> writeOne(const std::function<StoreResult<WriteOutcome>(EventLog &)> &work);
    StoreResult<WriteOutcome> createIn(Row row, EventLog &log);
    // How a replace is gated (SPEC §8): a PUT must leave the row compliant; an editor's
    // Replace, like a patch, only must not make a compliant row non-compliant.
    enum class ReplaceGate { Strict, NonRegression };
    // A `restoresSeq` above 0 must be an event of the row's key, and is logged as a
    // `restore` naming it.
    StoreResult<WriteOutcome> replaceIn(Row row, const QString &expectedUpdatedAt, ReplaceGate gate,
                                        EventLog &log, qint64 restoresSeq = 0);
    StoreError removeIn(const QString &key, const QString &expectedUpdatedAt, EventLog &log);

    // The hygiene gate's view of the whole directory, built on the first gated write and
    // kept current by each write after it; dropped when a write rolls back or an import
    // lands, to be rebuilt from the table on next use.
    DirectoryIndex &index();

    std::unique_ptr<DirectoryEngine> m_engine;
    // Only where the engine keeps them; declared after m_engine, which it refers to, so it is
    // destroyed first.
    std::unique_ptr<ThreadReadConnections> m_readConnections;
    QString m_path;
    QString m_connectionName;
    mutable std::unique_ptr<PreparedStatements> m_statements;
    std::optional<DirectoryIndex> m_index;
    QThread *m_ownerThread;
    QString m_actor = QStringLiteral("owner:local");
    std::shared_ptr<const Clock> m_clock = Clock::system();
};
