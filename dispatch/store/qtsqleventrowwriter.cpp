#include "dispatch/store/qtsqleventrowwriter.h"

#include "dispatch/store/sqldialect.h"

#include <QSqlError>
#include <QVariant>

namespace {

StoreError failure(const QString &what, const QSqlError &error)
{
    return StoreError::make(StoreError::Kind::Io, QStringLiteral("%1: %2").arg(what, error.text()));
}

QVariant textOrNull(const QByteArray &text, bool isNull)
{
    return isNull ? QVariant(QMetaType::fromType<QString>()) : QVariant(QString::fromUtf8(text));
}

} // namespace

QtSqlEventRowWriter::QtSqlEventRowWriter(const QSqlDatabase &db) : m_db(db), m_insert(db), m_moveHead(db) {}

StoreResult<std::unique_ptr<EventRowWriter>> QtSqlEventRowWriter::open(const QSqlDatabase &db)
{
    std::unique_ptr<QtSqlEventRowWriter> writer(new QtSqlEventRowWriter(db));
    if (!writer->m_insert.prepare(
            QStringLiteral("INSERT INTO events (seq, kind, action, key, actor, at, before_json, after_json, "
                           "detail, prev_hash, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")))
        return failure(QStringLiteral("cannot append to the event log"), writer->m_insert.lastError());
    if (!writer->m_moveHead.prepare(
            QStringLiteral("INSERT INTO event_chain_head (id, seq, hash) VALUES (1, ?, ?) "
                           "ON CONFLICT (id) DO UPDATE SET seq = excluded.seq, hash = excluded.hash")))
        return failure(QStringLiteral("cannot append to the event log"), writer->m_moveHead.lastError());
    return std::unique_ptr<EventRowWriter>(std::move(writer));
}

bool QtSqlEventRowWriter::holdsWriteLock() const
{
    // The lock lasts as long as the transaction this writer belongs to: asked once, not
    // once per event of a 100,000-row import.
    if (m_lockSeen)
        return true;
    QSqlQuery query(m_db);
    m_lockSeen = query.exec(SqlDialect::of(m_db).holdsWriteLock) && query.next() && query.value(0).toBool();
    return m_lockSeen;
}

StoreError QtSqlEventRowWriter::insert(const EncodedEvent &event)
{
    const QVariant values[] = {
        event.seq,
        QString::fromUtf8(event.kind),
        QString::fromUtf8(event.action),
        textOrNull(event.key, event.keyIsNull),
        QString::fromUtf8(event.actor),
        QString::fromUtf8(event.at),
        textOrNull(event.before, event.before == "null"),
        textOrNull(event.after, event.after == "null"),
        QString::fromUtf8(event.detail),
        QString::fromUtf8(event.prevHash),
        QString::fromUtf8(event.hash),
    };
    for (int i = 0; i < int(std::size(values)); ++i)
        m_insert.bindValue(i, values[i]);
    if (!m_insert.exec())
        return failure(QStringLiteral("cannot append event #%1").arg(event.seq), m_insert.lastError());
    return StoreError::none();
}

StoreError QtSqlEventRowWriter::moveHead(qint64 seq, const QByteArray &hash)
{
    m_moveHead.bindValue(0, seq);
    m_moveHead.bindValue(1, QString::fromLatin1(hash));
    if (!m_moveHead.exec())
        return failure(QStringLiteral("cannot move the event log's head"), m_moveHead.lastError());
    return StoreError::none();
}
