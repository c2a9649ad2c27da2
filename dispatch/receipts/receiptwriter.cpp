#include "dispatch/receipts/receiptwriter.h"

#include "dispatch/receipts/receiptlog.h"
#include "dispatch/store/connectionname.h"
#include "dispatch/store/sqldirectorystore.h"

#include <QSqlDatabase>
#include <QSqlError>

#include <optional>

using namespace Qt::StringLiterals;

// The writer thread's connection and its ReceiptLog: QtSql connections belong to the
// thread that opens them, so this lives and dies on the writer's thread.
class ReceiptWriter::Connection final
{
public:
    explicit Connection(std::shared_ptr<SqlDirectoryStore> store)
        : m_store(std::move(store)), m_name(ConnectionName::fresh(u"receipt-writer"_s))
    {}
    ~Connection() { close(); }
    Q_DISABLE_COPY_MOVE(Connection)

    QList<StoreError> write(const QList<Receipt> &receipts, const SigningKey &key)
    {
        if (!m_log || !QSqlDatabase::database(m_name, false).isOpen()) {
            if (StoreError error = open(); error.isError())
                return QList<StoreError>(receipts.size(), error);
        }
        QList<StoreError> written = m_log->appendBatch(receipts, key);
        // A connection the server dropped stays "open" to QtSql: the next batch reconnects.
        if (QSqlDatabase::database(m_name, false).lastError().type() == QSqlError::ConnectionError)
            m_log.reset();
        return written;
    }

private:
    // Opened at the first batch, and again after a failure or a lost connection (a
    // database server restarted), so one bad moment does not fail every later receipt.
    StoreError open()
    {
        close();
        StoreError error = m_store->openConnection(m_name);
        m_opened = true;
        if (!error.isError())
            m_log.emplace(QSqlDatabase::database(m_name, false));
        return error;
    }

    void close()
    {
        m_log.reset();
        if (!m_opened)
            return;
        QSqlDatabase::database(m_name, false).close();
        QSqlDatabase::removeDatabase(m_name);
        m_opened = false;
    }

    std::shared_ptr<SqlDirectoryStore> m_store;
    QString m_name;
    bool m_opened = false;
    std::optional<ReceiptLog> m_log;
};

ReceiptWriter::ReceiptWriter(std::shared_ptr<SqlDirectoryStore> store, SigningKey key)
    : m_store(std::move(store)), m_key(std::move(key)), m_thread([this] { run(); })
{}

ReceiptWriter::~ReceiptWriter()
{
    {
        const std::lock_guard lock(m_mutex);
        m_stopping = true;
    }
    m_wake.notify_one();
    m_thread.join();
}

std::shared_future<QList<StoreError>> ReceiptWriter::write(QList<Receipt> receipts)
{
    Job job{std::move(receipts), {}};
    std::shared_future<QList<StoreError>> future = job.promise.get_future().share();
    {
        const std::lock_guard lock(m_mutex);
        m_jobs.push_back(std::move(job));
    }
    m_wake.notify_one();
    return future;
}

void ReceiptWriter::run()
{
    Connection connection(m_store);
    for (;;) {
        Job job;
        {
            std::unique_lock lock(m_mutex);
            m_wake.wait(lock, [this] { return m_stopping || !m_jobs.empty(); });
            if (m_jobs.empty())
                return;
            job = std::move(m_jobs.front());
            m_jobs.pop_front();
        }
        job.promise.set_value(connection.write(job.receipts, m_key));
        emit written();
    }
}
