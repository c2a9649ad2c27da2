#include "dispatch/store/threadreadconnections.h"

#include "dispatch/store/connectionname.h"
#include "dispatch/store/directoryengine.h"

#include <QHash>
#include <QMutex>
#include <QThread>

struct ThreadReadConnections::Kept
{
    QMutex mutex;
    QHash<QThread *, QString> names;
    QHash<QThread *, QMetaObject::Connection> finishes;

    // The name `thread` had, now forgotten; empty when it had none.
    QString forget(QThread *thread)
    {
        QObject::disconnect(finishes.take(thread));
        return names.take(thread);
    }
};

ThreadReadConnections::ThreadReadConnections(const DirectoryEngine &engine)
    : m_engine(engine), m_kept(std::make_shared<Kept>())
{}

ThreadReadConnections::~ThreadReadConnections()
{
    QStringList names;
    {
        const QMutexLocker lock(&m_kept->mutex);
        for (QThread *thread : m_kept->names.keys())
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
    QString name;
    {
        const QMutexLocker lock(&m_kept->mutex);
        name = m_kept->names.value(thread);
    }
    if (name.isEmpty()) {
        name = ConnectionName::fresh(QStringLiteral("store-read"));
        if (StoreError error = m_engine.openConnection(name, true); error.isError()) {
            QSqlDatabase::removeDatabase(name);
            return error;
        }
        const QMutexLocker lock(&m_kept->mutex);
        m_kept->names.insert(thread, name);
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
    }
    QSqlDatabase db = QSqlDatabase::database(name, false);
    StoreError error = read(db);
    if (error.isError()) {
        {
            const QMutexLocker lock(&m_kept->mutex);
            m_kept->forget(thread);
        }
        db = QSqlDatabase();
        QSqlDatabase::removeDatabase(name);
    }
    return error;
}
