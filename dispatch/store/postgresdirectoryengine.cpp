#include "dispatch/store/postgresdirectoryengine.h"

#include "dispatch/store/directoryschema.h"
#include "dispatch/store/qtsqlrowscan.h"
#include "dispatch/store/qtsqlsummaryscan.h"

#include <QSqlError>
#include <QSqlQuery>

namespace {

using Kind = StoreError::Kind;

constexpr int kDefaultConnectTimeoutSeconds = 10;

QString connectOptions(const PostgresLocation &location, bool readOnly)
{
    QStringList options;
    bool timed = false;
    for (const auto &[name, value] : location.options()) {
        options.append(name + u'=' + value);
        timed = timed || name == QLatin1String("connect_timeout");
    }
    // libpq waits for an unanswering host as long as TCP does, minutes: a window or a
    // command gives up sooner unless the URL says otherwise.
    if (!timed)
        options.append(QStringLiteral("connect_timeout=%1").arg(kDefaultConnectTimeoutSeconds));
    // Read-only connections refuse writes in the server itself.
    if (readOnly)
        options.append(QStringLiteral("options=-cdefault_transaction_read_only=on"));
    return options.join(u';');
}

} // namespace

PostgresDirectoryEngine::PostgresDirectoryEngine(PostgresLocation location, DatabasePasswordLookup passwords)
    : m_location(std::move(location)), m_passwords(std::move(passwords)),
      m_feed(m_location.display(), [this](const QString &name) { return openConnection(name, false); })
{}

QString PostgresDirectoryEngine::password() const
{
    QMutexLocker lock(&m_passwordMutex);
    if (!m_password)
        m_password = m_passwords ? m_passwords(m_location.keychainName()) : QString();
    return *m_password;
}

StoreError PostgresDirectoryEngine::openConnection(const QString &name, bool readOnly) const
{
    QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QPSQL"), name);
    if (!db.isValid())
        return StoreError::make(Kind::Io,
                                QStringLiteral("cannot open %1: Qt's PostgreSQL driver (QPSQL, Debian "
                                               "package libqt6sql6-psql) is not installed")
                                    .arg(location()));
    db.setHostName(m_location.host());
    db.setPort(m_location.port());
    db.setDatabaseName(m_location.databaseName());
    db.setUserName(m_location.user());
    const QString secret = password();
    if (!secret.isEmpty())
        db.setPassword(secret);
    db.setConnectOptions(connectOptions(m_location, readOnly));
    if (!db.open())
        return StoreError::make(
            Kind::Io, QStringLiteral("cannot open %1: %2").arg(location(), db.lastError().text().trimmed()));
    QSqlQuery session(db);
    if (!session.exec(QStringLiteral("SET synchronous_commit = on"))
        || !session.exec(QStringLiteral("SHOW synchronous_commit")) || !session.next()
        || session.value(0).toString() != QLatin1String("on"))
        return StoreError::make(Kind::Io,
                                QStringLiteral("cannot make writes to %1 durable: synchronous_commit is "
                                               "'%2', not on")
                                    .arg(location(), session.value(0).toString()));
    return StoreError::none();
}

StoreError PostgresDirectoryEngine::prepare(QSqlDatabase &db) const
{
    return DirectorySchema::prepare(db, location());
}

StoreError PostgresDirectoryEngine::scanSummaries(QSqlDatabase &db,
                                                  const std::function<void(const RowSummaryView &)> &sink,
                                                  int firstByKey) const
{
    QSqlQuery query(db);
    query.setForwardOnly(true);
    QString sql = QStringLiteral("SELECT %1 FROM directory").arg(QLatin1String(QtSqlSummaryScan::kColumns));
    if (firstByKey > 0)
        sql += QStringLiteral(" ORDER BY key LIMIT %1").arg(firstByKey);
    if (!query.exec(sql) || !QtSqlSummaryScan::read(query, sink))
        return StoreError::make(
            Kind::Io, QStringLiteral("cannot read all of %1: %2").arg(location(), query.lastError().text()));
    return StoreError::none();
}

StoreError PostgresDirectoryEngine::scanRows(QSqlDatabase &db, bool byKey,
                                             const std::function<bool(Row &&row)> &each) const
{
    QSqlQuery query(db);
    query.setForwardOnly(true);
    const QString order = byKey ? QStringLiteral(" ORDER BY key") : QString();
    if (!query.exec(QStringLiteral("SELECT %1 FROM directory%2").arg(QtSqlRowScan::columns(), order))
        || !QtSqlRowScan::read(query, each))
        return StoreError::make(
            Kind::Io, QStringLiteral("cannot read all of %1: %2").arg(location(), query.lastError().text()));
    return StoreError::none();
}

StoreResult<DirectoryChanges> PostgresDirectoryEngine::changesSince(const QByteArray &cursor) const
{
    return m_feed.changesSince(cursor);
}
