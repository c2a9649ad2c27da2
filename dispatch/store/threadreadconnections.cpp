#include "dispatch/store/threadreadconnections.h"

#include "dispatch/store/connectionname.h"
#include "dispatch/store/directoryengine.h"

#include <QElapsedTimer>
#include <QHash>
#include <QMutex>
#include <QSqlQuery>
#include <QThread>

struct ThreadReadConnections::Kept
{
    struct Connection
    {
        QString name;
        QElapsedTimer sinceRead;
    };

    QMutex mutex;
    QHash<QThread *, Connection> connections;
    QHash<QThread *, QMetaObject::Connection> finishes;

    // The name `thread` had, now forgotten; empty when it had none.
    QString forget(QThread *thread)
    {
        QObject::disconnect(finishes.take(thread));
        return connections.take(thread).name;
    }
};

ThreadReadConnections::ThreadReadConnections(const DirectoryEngine &engine, int idleCheckMs)
    : m_engine(engine), m_idleCheckMs(idleCheckMs), m_kept(std::make_shared<Kept>())
{}

ThreadReadConnections::~ThreadReadConnections()
{
    QStringList names;
    {
        const QMutexLocker lock(&m_kept->mutex);
        for (QThread *thread : m_kept->connections.keys())
            names.append(m_kept->forget(thread));
    }
    // No read is running: the store that owns this is going, and every reader holds it.
    // Removing a connection no handle refers to deletes its driver, which closes it, from
    // any thread.
    for (const QString &name : std::as_const(names))
        QSqlDatabase::removeDatabase(name);
}

StoreError ThreadReadConnections::read(const std::function<StoreError(QSqlDatabase &)> &read)
{
    QThread *thread = QThread::currentThread();
    QString name = keptName(thread);
    if (name.isEmpty()) {
        StoreResult<QString> opened = open(thread);
        if (!opened.ok())
            return opened.error();
        name = opened.value();
    }
    StoreError error;
    {
        QSqlDatabase db = QSqlDatabase::database(name, false);
        error = read(db);
    }
    if (error.isError()) {
        drop(thread, name);
        return error;
    }
    const QMutexLocker lock(&m_kept->mutex);
    m_kept->connections[thread].sinceRead.start();
    return error;
}

QString ThreadReadConnections::keptName(QThread *thread)
{
    QString name;
    bool idle = false;
    {
        const QMutexLocker lock(&m_kept->mutex);
        const auto found = m_kept->connections.constFind(thread);
        if (found == m_kept->connections.cend())
            return {};
        name = found->name;
        idle = found->sinceRead.elapsed() >= m_idleCheckMs;
    }
    if (!idle)
        return name;
    bool answers = false;
    {
        QSqlDatabase db = QSqlDatabase::database(name, false);
        QSqlQuery query(db);
        answers = query.exec(QStringLiteral("SELECT 1"));
    }
    if (answers)
        return name;
    drop(thread, name);
    return {};
}

StoreResult<QString> ThreadReadConnections::open(QThread *thread)
{
    const QString name = ConnectionName::fresh(QStringLiteral("store-read"));
    if (StoreError error = m_engine.openConnection(name, true); error.isError()) {
        QSqlDatabase::removeDatabase(name);
        return error;
    }
    const QMutexLocker lock(&m_kept->mutex);
    Kept::Connection &kept = m_kept->connections[thread];
    kept.name = name;
    kept.sinceRead.start();
    // Emitted once the thread reads no more (for a thread Qt did not start, when it exits).
    m_kept->finishes.insert(thread, QObject::connect(
                                        thread, &QThread::finished, thread,
                                        [kept = m_kept, thread] {
                                            QString gone;
                                            {
                                                const QMutexLocker lock(&kept->mutex);
                                                gone = kept->forget(thread);
                                            }
                                            if (!gone.isEmpty())
                                                QSqlDatabase::removeDatabase(gone);
                                        },
                                        Qt::DirectConnection));
    return name;
}

void ThreadReadConnections::drop(QThread *thread, const QString &name)
{
    {
        const QMutexLocker lock(&m_kept->mutex);
        m_kept->forget(thread);
    }
    QSqlDatabase::removeDatabase(name);
}
