#include "dispatch/receipts/receiptlog.h"

#include "dispatch/core/isotime.h"
#include "dispatch/receipts/receiptchain.h"
#include "dispatch/receipts/receiptchainhead.h"
#include "dispatch/receipts/signingkey.h"
#include "dispatch/store/eventlog.h"
#include "dispatch/store/preparedrun.h"
#include "dispatch/store/writetransaction.h"

#include "dispatch/store/sqldialect.h"
#include <QJsonDocument>
#include <QSqlError>

#include <QSqlQuery>

using namespace Qt::StringLiterals;

namespace {

StoreError sqlError(const QString &what, const QSqlError &error)
{
    return StoreError::make(StoreError::Kind::Io, what + u": "_s + error.text());
}

StoreResult<Receipt> receiptFromText(const QString &text)
{
    QString error;
    const std::optional<Receipt> receipt =
        Receipt::fromJson(QJsonDocument::fromJson(text.toUtf8()).object(), &error);
    if (!receipt)
        return StoreError::make(StoreError::Kind::Io, u"a stored receipt cannot be read: "_s + error);
    return *receipt;
}

} // namespace

ReceiptLog::ReceiptLog(const QSqlDatabase &db) : m_db(db), m_writer(ReceiptChain::newWriterId()) {}

StoreError ReceiptLog::announce(EventLog &events, const QString &writer)
{
    LogEvent opened;
    opened.kind = ReceiptChain::kOpenedEventKind;
    opened.action = u"open"_s;
    opened.actor = u"engine"_s;
    opened.detail = QJsonObject{{u"writer"_s, writer}};
    return events.append(opened);
}

StoreResult<ReceiptLog::Tip> ReceiptLog::link(const QString &writer, const Tip &tip, qint64 receiptSeq,
                                              const QByteArray &receiptJson)
{
    const Tip next{tip.seq + 1, ReceiptChain::linkHash(writer, tip.seq + 1, tip.hash,
                                                       ReceiptChain::receiptHash(receiptJson))};
    PreparedRun insert = m_statements.run(
        u"INSERT INTO receipt_chain_links (receipt_seq, writer, seq, prev_hash, hash) VALUES (?,?,?,?,?)"_s,
        {receiptSeq, writer, next.seq, tip.hash, next.hash});
    if (!insert.ok())
        return sqlError(u"cannot link receipt #%1 into its chain"_s.arg(receiptSeq), insert.lastError());
    return next;
}

StoreError ReceiptLog::signHead(const QString &writer, const Tip &tip, const SigningKey &key)
{
    PreparedRun events = m_statements.run(u"SELECT seq, hash FROM event_chain_head WHERE id = 1"_s);
    if (!events.ok())
        return sqlError(u"cannot read the event log's head"_s, events.lastError());
    ReceiptChainHead head;
    head.writer = writer;
    head.seq = tip.seq;
    head.hash = tip.hash;
    head.eventsSeq = events.query().next() ? events.query().value(0).toLongLong() : 0;
    head.eventsHash = head.eventsSeq > 0 ? events.query().value(1).toString() : EventLog::kGenesisHash;
    head.signedAt = IsoTime::nowUtc();
    head.signWith(key);
    PreparedRun upsert = m_statements.run(
        u"INSERT INTO receipt_chain_heads (writer, seq, hash, events_seq, events_hash, signed_at, signature) "
        "VALUES (?,?,?,?,?,?,?) ON CONFLICT (writer) DO UPDATE SET seq = excluded.seq, hash = excluded.hash, "
        "events_seq = excluded.events_seq, events_hash = excluded.events_hash, "
        "signed_at = excluded.signed_at, signature = excluded.signature"_s,
        {head.writer, head.seq, head.hash, head.eventsSeq, head.eventsHash, head.signedAt, head.signature});
    if (!upsert.ok())
        return sqlError(u"cannot move the receipt chain's head"_s, upsert.lastError());
    return StoreError::none();
}

StoreError ReceiptLog::append(const Receipt &receipt, const SigningKey &key)
{
    return appendBatch({receipt}, key).constFirst();
}

StoreError ReceiptLog::insert(const Receipt &receipt, Tip *tip)
{
    const QByteArray json = QJsonDocument(receipt.toJson()).toJson(QJsonDocument::Compact);
    const SqlDialect &dialect = SqlDialect::of(m_db);
    PreparedRun insert = m_statements.run(
        u"INSERT INTO receipts (invocation_id, trace, key, parent, actor, runner, started_at, duration_ms, "
        "material, status, contract_fingerprint, receipt_json) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)"_s
            + dialect.returningSeq,
        {receipt.invocationId, receipt.trace, receipt.key, receipt.parent, receipt.actor, receipt.runner,
         receipt.startedAt, receipt.durationMs, receipt.material ? 1 : 0, receipt.status,
         receipt.contractFingerprint, QString::fromUtf8(json)});
    if (!insert.ok())
        return sqlError(u"cannot write the receipt of "_s + receipt.invocationId, insert.lastError());
    const qint64 seq = dialect.returningSeq.isEmpty()
                           ? insert.query().lastInsertId().toLongLong()
                           : (insert.query().next() ? insert.query().value(0).toLongLong() : 0);
    const StoreResult<Tip> next = link(m_writer, *tip, seq, json);
    if (!next.ok())
        return next.error();
    *tip = next.value();
    return StoreError::none();
}

// One receipt that cannot be written (say, an invocation id already there) is rolled back
// to its savepoint alone, so it never costs the others in its batch their write. When the
// savepoint itself cannot be rolled back or released, SQLite has ended the transaction
// (a full disk, an I/O error): `broken` says the batch cannot go on.
StoreError ReceiptLog::insertAlone(const Receipt &receipt, Tip *tip, bool *broken)
{
    const QString what = u"cannot write the receipt of "_s + receipt.invocationId;
    if (PreparedRun savepoint = m_statements.control(u"SAVEPOINT receipt"_s); !savepoint.ok()) {
        *broken = true;
        return sqlError(what, savepoint.lastError());
    }
    Tip next = *tip;
    StoreError error = insert(receipt, &next);
    if (error.isError()) {
        if (!m_statements.control(u"ROLLBACK TO receipt"_s).ok()
            || !m_statements.control(u"RELEASE receipt"_s).ok())
            *broken = true;
        return error;
    }
    if (PreparedRun release = m_statements.control(u"RELEASE receipt"_s); !release.ok()) {
        *broken = true;
        return sqlError(what, release.lastError());
    }
    *tip = next;
    return StoreError::none();
}

QList<StoreError> ReceiptLog::appendBatch(const QList<Receipt> &receipts, const SigningKey &key)
{
    const auto all = [&receipts](const StoreError &error) {
        return QList<StoreError>(receipts.size(), error);
    };
    if (receipts.isEmpty())
        return {};
    WriteTransaction transaction(m_db);
    if (transaction.startError().isError())
        return all(transaction.startError());
    if (!m_tip) {
        EventLog events(m_db);
        if (StoreError error = announce(events, m_writer); error.isError())
            return all(error);
    }
    QList<StoreError> errors;
    errors.reserve(receipts.size());
    Tip tip = m_tip.value_or(Tip{0, ReceiptChain::kGenesisHash});
    bool anyWritten = false;
    for (const Receipt &receipt : receipts) {
        bool broken = false;
        errors.append(insertAlone(receipt, &tip, &broken));
        if (broken)
            return all(errors.constLast());
        anyWritten = anyWritten || !errors.constLast().isError();
    }
    if (!anyWritten)
        return errors;
    if (StoreError error = signHead(m_writer, tip, key); error.isError())
        return all(error);
    if (StoreError error = transaction.commit(); error.isError())
        return all(error);
    m_tip = tip;
    return errors;
}

StoreError ReceiptLog::sealPreChain(const SigningKey &key)
{
    WriteTransaction transaction(m_db);
    if (transaction.startError().isError())
        return transaction.startError();
    QSqlQuery sealed(m_db);
    sealed.prepare(u"SELECT 1 FROM receipt_chain_heads WHERE writer = ?"_s);
    sealed.addBindValue(ReceiptChain::kPreChainWriter);
    if (!sealed.exec())
        return sqlError(u"cannot read the receipt chains"_s, sealed.lastError());
    if (sealed.next())
        return StoreError::none();
    QSqlQuery old(m_db);
    old.setForwardOnly(true);
    if (!old.exec(
            u"SELECT r.seq, r.receipt_json FROM receipts r LEFT JOIN receipt_chain_links l ON l.receipt_seq "
            u"= r.seq "
            "WHERE l.receipt_seq IS NULL AND r.seq <= (SELECT pre_chain_through FROM receipt_chain_origin "
            "WHERE id = 1) ORDER BY r.seq"_s))
        return sqlError(u"cannot read the receipts written before the chains"_s, old.lastError());
    Tip tip{0, ReceiptChain::kGenesisHash};
    while (old.next()) {
        const StoreResult<Tip> next = link(ReceiptChain::kPreChainWriter, tip, old.value(0).toLongLong(),
                                           old.value(1).toString().toUtf8());
        if (!next.ok())
            return next.error();
        tip = next.value();
    }
    if (old.lastError().isValid())
        return sqlError(u"cannot read all the receipts written before the chains"_s, old.lastError());
    if (tip.seq == 0)
        return StoreError::none();
    EventLog events(m_db);
    if (StoreError error = announce(events, ReceiptChain::kPreChainWriter); error.isError())
        return error;
    if (StoreError error = signHead(ReceiptChain::kPreChainWriter, tip, key); error.isError())
        return error;
    return transaction.commit();
}

StoreResult<QString> ReceiptLog::archivedBefore() const
{
    QSqlQuery query(m_db);
    if (!query.exec(u"SELECT MAX(started_before) FROM receipt_archives"_s) || !query.next())
        return sqlError(u"cannot read the receipt archives"_s, query.lastError());
    return query.value(0).toString();
}

StoreResult<qint64> ReceiptLog::chainCount() const
{
    QSqlQuery query(m_db);
    if (!query.exec(u"SELECT COUNT(*) FROM receipt_chain_heads"_s) || !query.next())
        return sqlError(u"cannot read the receipt chains"_s, query.lastError());
    return query.value(0).toLongLong();
}

StoreResult<Receipt> ReceiptLog::find(const QString &invocationId) const
{
    QSqlQuery query(m_db);
    query.prepare(u"SELECT receipt_json FROM receipts WHERE invocation_id = ?"_s);
    query.addBindValue(invocationId);
    if (!query.exec())
        return sqlError(u"cannot read receipts"_s, query.lastError());
    if (!query.next())
        return StoreError::make(StoreError::Kind::NotFound, u"no receipt "_s + invocationId);
    StoreResult<Receipt> receipt = receiptFromText(query.value(0).toString());
    // The signed JSON is the receipt; the row's own invocation_id column is only an index,
    // which anyone holding the file can point at another receipt.
    if (receipt.ok() && receipt.value().invocationId != invocationId)
        return StoreError::make(
            StoreError::Kind::Conflict,
            u"the receipt stored for %1 is signed for %2"_s.arg(invocationId, receipt.value().invocationId));
    return receipt;
}

StoreResult<ReceiptLog::LinkState> ReceiptLog::linkState(const QString &invocationId) const
{
    QSqlQuery query(m_db);
    query.prepare(u"SELECT r.receipt_json, l.writer, l.seq, l.prev_hash, l.hash FROM receipts r "
                  "LEFT JOIN receipt_chain_links l ON l.receipt_seq = r.seq WHERE r.invocation_id = ?"_s);
    query.addBindValue(invocationId);
    if (!query.exec())
        return sqlError(u"cannot read receipts"_s, query.lastError());
    if (!query.next())
        return StoreError::make(StoreError::Kind::NotFound, u"no receipt "_s + invocationId);
    if (query.value(1).isNull())
        return LinkState::Unlinked;
    const QString recomputed = ReceiptChain::linkHash(
        query.value(1).toString(), query.value(2).toLongLong(), query.value(3).toString(),
        ReceiptChain::receiptHash(query.value(0).toString().toUtf8()));
    return recomputed == query.value(4).toString() ? LinkState::Linked : LinkState::Altered;
}

StoreResult<QList<Receipt>> ReceiptLog::list(const Query &filter) const
{
    QStringList where;
    if (!filter.key.isEmpty())
        where.append(u"key = :key"_s);
    if (!filter.parent.isEmpty())
        where.append(u"parent = :parent"_s);
    QString sql = u"SELECT receipt_json FROM receipts"_s;
    if (!where.isEmpty())
        sql += u" WHERE "_s + where.join(u" AND "_s);
    sql += u" ORDER BY seq DESC"_s;
    if (filter.limit >= 0)
        sql += u" LIMIT "_s + QString::number(filter.limit);
    QSqlQuery query(m_db);
    query.setForwardOnly(true);
    query.prepare(sql);
    if (!filter.key.isEmpty())
        query.bindValue(u":key"_s, filter.key);
    if (!filter.parent.isEmpty())
        query.bindValue(u":parent"_s, filter.parent);
    if (!query.exec())
        return sqlError(u"cannot read receipts"_s, query.lastError());
    QList<Receipt> receipts;
    while (query.next()) {
        StoreResult<Receipt> receipt = receiptFromText(query.value(0).toString());
        if (!receipt.ok())
            return receipt.error();
        receipts.append(std::move(receipt.value()));
    }
    return receipts;
}
