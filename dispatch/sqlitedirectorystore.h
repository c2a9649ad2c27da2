#pragma once

#include "directorystore.h"

#include <QSqlDatabase>
#include <QString>
#include <QThread>

#include <memory>

// The embedded directory: one SQLite file through QtSql, in WAL mode, migrated to the
// app's schema when opened. A file that is not a directory, is newer than this build, or
// is corrupt is refused and left exactly as it was.
class SqliteDirectoryStore final : public DirectoryStore
{
public:
    static StoreResult<std::shared_ptr<SqliteDirectoryStore>> open(const QString &path);
    ~SqliteDirectoryStore() override;
    Q_DISABLE_COPY_MOVE(SqliteDirectoryStore)

    QString location() const override { return m_path; }

    StoreError scanSummaryViews(const std::function<void(const RowSummaryView &)> &sink,
                                int firstByKey = 0) const override;
    StoreResult<Row> row(const QString &key) const override;
    StoreResult<QList<Row>> allRows() const override;
    StoreResult<QList<Row>> rows(const QStringList &keys) const override;
    StoreResult<QStringList> keysWithContent(const QString &needle) const override;
    StoreResult<QList<AuthUsage>> authUsage() const override;

    StoreResult<WriteOutcome> create(Row row) override;
    StoreResult<WriteOutcome> replace(Row row, const QString &expectedUpdatedAt = QString()) override;
    StoreResult<WriteOutcome> put(Row row) override;
    StoreResult<WriteOutcome> patch(const QString &key, const QJsonObject &fields) override;
    StoreError remove(const QString &key, const QString &expectedUpdatedAt = QString()) override;
    StoreError importRows(const QList<Row> &rows) override;
    StoreError apply(const ChangeSet &changes) override;

    // The connection, for components that keep their own tables in the same file.
    QSqlDatabase database() const;

private:
    SqliteDirectoryStore(QString path, QString connectionName);

    // Runs `read` on the store's own connection when called from the thread that opened
    // it, else on a short-lived read-only connection: QtSql connections are per thread.
    StoreError withReadConnection(const std::function<StoreError(QSqlDatabase &)> &read) const;
    bool exists(const QString &key) const;
    StoreError insertRow(const Row &row);
    StoreError updateRow(const Row &row);
    StoreError inTransaction(const std::function<StoreError()> &work);

    QString m_path;
    QString m_connectionName;
    QThread *m_ownerThread;
};
