#include "dispatch/receipts/receiptlogaudit.h"

#include "dispatch/receipts/publickey.h"
#include "dispatch/receipts/receipt.h"
#include "dispatch/receipts/receiptchain.h"
#include "dispatch/receipts/receiptchainhead.h"
#include "dispatch/receipts/receiptloganchor.h"
#include "dispatch/receipts/receiptsegmentseal.h"
#include "dispatch/receipts/signingkeylist.h"
#include "dispatch/receipts/signingkeysuccession.h"
#include "dispatch/store/sqldialect.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QSqlError>
#include <QSqlQuery>

#include <utility>

using namespace Qt::StringLiterals;

namespace {

StoreError sqlError(const QString &what, const QSqlError &error)
{
    return StoreError::make(StoreError::Kind::Io, what + u": "_s + error.text());
}

struct LinkTip
{
    qint64 seq = 0;
    QString hash = ReceiptChain::kGenesisHash;
};

// One audit's state: what it has read and what it found.
class Auditor
{
public:
    Auditor(const QSqlDatabase &db, const QList<PublicKey> &keys) : m_db(db), m_keys(keys) {}

    StoreResult<ReceiptLogAudit::Report> run(const ReceiptLogAnchor *anchor)
    {
        const StoreError error = [&] {
            StoreError step = readKeys();
            if (!step.isError())
                step = checkEvents();
            if (!step.isError())
                step = readHeads();
            if (!step.isError())
                step = readArchives();
            if (!step.isError())
                step = walkLinks();
            if (!step.isError())
                step = checkUnlinked();
            if (!step.isError())
                step = checkAnnouncedWriters();
            if (!step.isError() && anchor)
                step = checkAnchor(*anchor);
            return step;
        }();
        if (error.isError())
            return error;
        return m_report;
    }

private:
    void find(const QString &code, const QString &message) { m_report.add({code, message}); }

    // The keys the directory lists, and, trusted beside the given ones, those their signed
    // successions link to them (SigningKeySuccession).
    StoreError readKeys()
    {
        StoreResult<SigningKeyList> listed = SigningKeyList::read(m_db);
        if (!listed.ok())
            return listed.error();
        m_listed = listed.value().keys;
        if (!m_keys.isEmpty())
            m_keys = SigningKeySuccession::widen(m_keys, listed.value().successions);
        return StoreError::none();
    }

    // Why a head no trusted key signed is not believed: a key the directory lists that no
    // succession links to the trusted ones, or no listed key at all.
    void headNotTrusted(const ReceiptChainHead &head)
    {
        // Each listed key costs a signature check per head, and a crafted file can hold many
        // of both: once the checks spent on naming keys reach a budget, a head is only
        // reported as forged.
        for (const PublicKey &key : std::as_const(m_listed)) {
            if (m_attributionChecks++ >= kMaxAttributionChecks)
                break;
            if (head.verifiedBy({key})) {
                find(
                    u"receipt_chain_other_key"_s,
                    u"the head of receipt chain %1 (#%2) is signed by key %3, which the directory lists but "
                    "no signed succession links to the key held here (%4): check it with the key file of %3"_s
                        .arg(head.writer)
                        .arg(head.seq)
                        .arg(key.keyId(), m_keys.constFirst().keyId()));
                return;
            }
        }
        find(u"receipt_chain_head_forged"_s,
             u"the head of receipt chain %1 (#%2) is not signed by the directory's key"_s.arg(head.writer)
                 .arg(head.seq));
    }

    StoreResult<std::optional<QString>> eventHash(qint64 seq) const
    {
        QSqlQuery query(m_db);
        query.prepare(u"SELECT hash FROM events WHERE seq = ?"_s);
        query.addBindValue(seq);
        if (!query.exec())
            return sqlError(u"cannot read the event log"_s, query.lastError());
        return query.next() ? std::optional<QString>(query.value(0).toString()) : std::nullopt;
    }

    StoreError checkEvents()
    {
        const StoreResult<EventLog::Verification> verified = EventLog(m_db).verify();
        if (!verified.ok())
            return verified.error();
        m_report.events = verified.value();
        if (!m_report.events.intact)
            find(u"event_chain_broken"_s, m_report.events.problem);
        QSqlQuery counts(m_db);
        if (!counts.exec(u"SELECT (SELECT COUNT(*) FROM events), (SELECT COALESCE(MAX(seq), 0) FROM events), "
                         "("_s
                         + SqlDialect::of(m_db).eventSeqIssued + u")"_s)
            || !counts.next())
            return sqlError(u"cannot count the event log"_s, counts.lastError());
        m_eventCount = counts.value(0).toLongLong();
        m_lastEvent = counts.value(1).toLongLong();
        // The database raises this counter with every event and a rollback takes it back
        // (sqlite_sequence, events_seq_issued), so in an untouched log it is the last
        // event's seq.
        const qint64 counter = counts.value(2).toLongLong();
        if (counter > m_lastEvent && m_report.events.intact)
            eventsShort(counter, u"the database's own counter"_s);
        return StoreError::none();
    }

    void eventsShort(qint64 attested, const QString &who)
    {
        if (m_eventCount == 0) {
            // One wipe, however many witnesses show it.
            if (!std::exchange(m_wipeFound, true))
                find(u"event_log_wiped"_s,
                     u"the event log is empty, but %1 shows it reached event #%2"_s.arg(who).arg(attested));
        } else
            find(u"events_missing"_s,
                 u"the event log ends at #%1, but %2 shows it reached event #%3"_s.arg(m_lastEvent)
                     .arg(who)
                     .arg(attested));
    }

    StoreError readHeads()
    {
        QSqlQuery query(m_db);
        query.setForwardOnly(true);
        if (!query.exec(u"SELECT writer, seq, hash, events_seq, events_hash, signed_at, signature "
                        "FROM receipt_chain_heads ORDER BY writer"_s))
            return sqlError(u"cannot read the receipt chain heads"_s, query.lastError());
        while (query.next()) {
            ReceiptChainHead head{query.value(0).toString(), query.value(1).toLongLong(),
                                  query.value(2).toString(), query.value(3).toLongLong(),
                                  query.value(4).toString(), query.value(5).toString(),
                                  query.value(6).toString()};
            m_heads.insert(head.writer, head);
        }
        m_report.chains = m_heads.size();
        if (!m_heads.isEmpty() && m_keys.isEmpty())
            find(u"no_trusted_key"_s,
                 u"%1 receipt chain heads are signed, but there is no key to check them with"_s.arg(
                     m_heads.size()));
        for (const ReceiptChainHead &head : std::as_const(m_heads)) {
            if (!m_keys.isEmpty() && !head.verifiedBy(m_keys))
                headNotTrusted(head);
            if (StoreError error = checkAttestation(head); error.isError())
                return error;
        }
        return StoreError::none();
    }

    StoreError checkAttestation(const ReceiptChainHead &head)
    {
        if (head.eventsSeq <= 0)
            return StoreError::none();
        const StoreResult<std::optional<QString>> hash = eventHash(head.eventsSeq);
        if (!hash.ok())
            return hash.error();
        const QString who = u"the signed head of receipt chain %1"_s.arg(head.writer);
        if (!hash.value())
            eventsShort(head.eventsSeq, who);
        else if (*hash.value() != head.eventsHash)
            find(u"event_log_rewritten"_s,
                 u"event #%1 is not the one %2 attests"_s.arg(head.eventsSeq).arg(who));
        return StoreError::none();
    }

    bool trusted(const QString &keyId) const
    {
        return std::any_of(m_keys.begin(), m_keys.end(),
                           [&keyId](const PublicKey &key) { return key.keyId() == keyId; });
    }

    // The chains pick up where the archives, in order, leave them.
    StoreError readArchives()
    {
        QHash<qint64, ReceiptSegmentSeal> seals;
        if (StoreError error = readSeals(&seals); error.isError())
            return error;
        return readRanges(seals);
    }

    // Each archive's seal, checked against its row and the keys.
    StoreError readSeals(QHash<qint64, ReceiptSegmentSeal> *seals)
    {
        QSqlQuery archives(m_db);
        archives.setForwardOnly(true);
        if (!archives.exec(u"SELECT id, started_before, receipt_count, seal_json, signature "
                           "FROM receipt_archives ORDER BY id"_s))
            return sqlError(u"cannot read the receipt archives"_s, archives.lastError());
        while (archives.next()) {
            const qint64 id = archives.value(0).toLongLong();
            QString error;
            const std::optional<ReceiptSegmentSeal> seal = ReceiptSegmentSeal::fromJson(
                QJsonDocument::fromJson(archives.value(3).toString().toUtf8()).object(), &error);
            if (!seal) {
                find(u"receipt_archive_forged"_s,
                     u"receipt archive #%1: its seal cannot be read: %2"_s.arg(id).arg(error));
                continue;
            }
            if (!m_keys.isEmpty() && (!seal->selfSigned() || !trusted(seal->keyId())))
                find(u"receipt_archive_forged"_s,
                     u"receipt archive #%1 is not sealed by the directory's key"_s.arg(id));
            else if (seal->signature != archives.value(4).toString()
                     || seal->before != archives.value(1).toString()
                     || seal->receiptCount != archives.value(2).toLongLong())
                find(u"receipt_archive_mismatch"_s,
                     u"receipt archive #%1: its row was edited away from its seal"_s.arg(id));
            ++m_report.archives;
            m_report.archivedReceipts += seal->receiptCount;
            seals->insert(id, *seal);
        }
        return StoreError::none();
    }

    // Each recorded stretch against its seal, and against where the one before it ended.
    StoreError readRanges(const QHash<qint64, ReceiptSegmentSeal> &seals)
    {
        QSqlQuery ranges(m_db);
        ranges.setForwardOnly(true);
        if (!ranges.exec(u"SELECT archive_id, writer, from_seq, through_seq, through_hash "
                         "FROM receipt_archive_ranges ORDER BY writer, through_seq"_s))
            return sqlError(u"cannot read the receipt archives"_s, ranges.lastError());
        QHash<qint64, qsizetype> rangesOf;
        while (ranges.next()) {
            const qint64 id = ranges.value(0).toLongLong();
            const QString writer = ranges.value(1).toString();
            const qint64 fromSeq = ranges.value(2).toLongLong();
            const LinkTip through{ranges.value(3).toLongLong(), ranges.value(4).toString()};
            ++rangesOf[id];
            const LinkTip before = m_archivedEnds.value(writer);
            const auto sealed = [&] {
                const auto seal = seals.constFind(id);
                if (seal == seals.constEnd())
                    return false;
                return std::any_of(
                    seal->ranges.begin(), seal->ranges.end(), [&](const ReceiptSegmentSeal::Range &range) {
                        return range.writer == writer && range.fromSeq == fromSeq
                               && range.fromPrevHash == before.hash && range.throughSeq == through.seq
                               && range.throughHash == through.hash;
                    });
            }();
            if (fromSeq != before.seq + 1 || !sealed)
                find(u"receipt_archive_mismatch"_s,
                     u"receipt archive #%1 does not take receipt chain %2 on from #%3 as its seal says"_s
                         .arg(id)
                         .arg(writer)
                         .arg(before.seq));
            m_archivedEnds.insert(writer, through);
        }
        for (auto seal = seals.constBegin(); seal != seals.constEnd(); ++seal) {
            if (rangesOf.value(seal.key()) != seal->ranges.size())
                find(
                    u"receipt_archive_mismatch"_s,
                    u"receipt archive #%1 records %2 chain stretches, and its seal names %3"_s.arg(seal.key())
                        .arg(rangesOf.value(seal.key()))
                        .arg(seal->ranges.size()));
        }
        return StoreError::none();
    }

    StoreError walkLinks()
    {
        QSqlQuery query(m_db);
        query.setForwardOnly(true);
        if (!query.exec(u"SELECT l.writer, l.seq, l.prev_hash, l.hash, l.receipt_seq, r.receipt_json, "
                        "r.invocation_id, r.trace, r.key, r.parent, r.actor, r.runner, r.started_at, "
                        "r.duration_ms, r.material, r.status, r.contract_fingerprint "
                        "FROM receipt_chain_links l LEFT JOIN receipts r ON r.seq = l.receipt_seq "
                        "ORDER BY l.writer, l.seq"_s))
            return sqlError(u"cannot read the receipt chains"_s, query.lastError());
        QString writer;
        LinkTip tip;
        bool any = false;
        while (query.next()) {
            const QString linkWriter = query.value(0).toString();
            if (!any || linkWriter != writer) {
                if (any)
                    endChain(writer, tip);
                writer = linkWriter;
                tip = m_archivedEnds.value(writer);
                any = true;
            }
            tip = checkLink(writer, tip, query);
        }
        if (query.lastError().isValid())
            return sqlError(u"cannot read all the receipt chains"_s, query.lastError());
        if (any)
            endChain(writer, tip);
        for (const ReceiptChainHead &head : std::as_const(m_heads)) {
            if (m_walked.contains(head.writer))
                continue;
            const LinkTip archived = m_archivedEnds.value(head.writer);
            if (head.seq > archived.seq)
                find(u"receipt_missing"_s,
                     archived.seq == 0
                         ? u"receipt chain %1: its signed head records %2 receipts, and none is left"_s
                               .arg(head.writer)
                               .arg(head.seq)
                         : u"receipt chain %1: its signed head records %2 receipts, and none is "
                           "left past the %3 archived"_s.arg(head.writer)
                               .arg(head.seq)
                               .arg(archived.seq));
            else if (head.seq == archived.seq && head.hash != archived.hash)
                find(u"receipt_chain_head_mismatch"_s,
                     u"receipt chain %1 does not end in the link its signed head names"_s.arg(head.writer));
        }
        return StoreError::none();
    }

    LinkTip checkLink(const QString &writer, const LinkTip &tip, const QSqlQuery &query)
    {
        const qint64 seq = query.value(1).toLongLong();
        const QString prevHash = query.value(2).toString();
        const QString hash = query.value(3).toString();
        const qint64 receiptSeq = query.value(4).toLongLong();
        if (seq != tip.seq + 1)
            find(u"receipt_missing"_s,
                 u"receipt chain %1: receipt #%2 is missing (the chain goes from #%3 to #%4)"_s.arg(writer)
                     .arg(tip.seq + 1)
                     .arg(tip.seq)
                     .arg(seq));
        else if (prevHash != tip.hash)
            find(u"receipt_chain_broken"_s,
                 u"receipt chain %1: #%2 does not follow #%3"_s.arg(writer).arg(seq).arg(tip.seq));
        if (query.value(5).isNull()) {
            find(u"receipt_missing"_s,
                 u"receipt chain %1: #%2 links receipt row %3, which was deleted"_s.arg(writer).arg(seq).arg(
                     receiptSeq));
        } else {
            ++m_linkedReceipts;
            const QString recomputed = ReceiptChain::linkHash(
                writer, seq, prevHash, ReceiptChain::receiptHash(query.value(5).toString().toUtf8()));
            if (recomputed != hash)
                find(u"receipt_altered"_s,
                     u"receipt chain %1: receipt row %2 (#%3) was altered after it was linked"_s.arg(writer)
                         .arg(receiptSeq)
                         .arg(seq));
            else
                checkColumns(writer, seq, receiptSeq, query);
        }
        return LinkTip{seq, hash};
    }

    // The columns beside receipt_json exist to filter and sort, and the signed JSON is the
    // receipt; a column edited away from it would hide a receipt from a filter or show it
    // under another key, actor or status while its JSON still verifies.
    void checkColumns(const QString &writer, qint64 seq, qint64 receiptSeq, const QSqlQuery &query)
    {
        QString error;
        const std::optional<Receipt> receipt =
            Receipt::fromJson(QJsonDocument::fromJson(query.value(5).toString().toUtf8()).object(), &error);
        if (!receipt) {
            find(u"receipt_altered"_s,
                 u"receipt chain %1: receipt row %2 (#%3) cannot be read: %4"_s.arg(writer)
                     .arg(receiptSeq)
                     .arg(seq)
                     .arg(error));
            return;
        }
        const QList<std::pair<QString, bool>> columns{
            {u"invocation_id"_s, query.value(6).toString() == receipt->invocationId},
            {u"trace"_s, query.value(7).toString() == receipt->trace},
            {u"key"_s, query.value(8).toString() == receipt->key},
            {u"parent"_s, query.value(9).toString() == receipt->parent},
            {u"actor"_s, query.value(10).toString() == receipt->actor},
            {u"runner"_s, query.value(11).toString() == receipt->runner},
            {u"started_at"_s, query.value(12).toString() == receipt->startedAt},
            {u"duration_ms"_s, query.value(13).toLongLong() == qint64(receipt->durationMs)},
            {u"material"_s, query.value(14).toBool() == receipt->material},
            {u"status"_s, query.value(15).toString() == receipt->status},
            {u"contract_fingerprint"_s, query.value(16).toString() == receipt->contractFingerprint},
        };
        QStringList differing;
        for (const auto &[column, same] : columns) {
            if (!same)
                differing.append(column);
        }
        if (!differing.isEmpty())
            find(u"receipt_altered"_s,
                 u"receipt chain %1: receipt row %2 (#%3) has %4 edited away from its signed receipt"_s
                     .arg(writer)
                     .arg(receiptSeq)
                     .arg(seq)
                     .arg(differing.join(u", "_s)));
    }

    void endChain(const QString &writer, const LinkTip &tip)
    {
        m_walked.insert(writer);
        const auto head = m_heads.constFind(writer);
        if (head == m_heads.constEnd())
            find(u"receipt_chain_head_missing"_s,
                 u"receipt chain %1 has %2 links and no signed head"_s.arg(writer).arg(tip.seq));
        else if (head->seq > tip.seq)
            find(u"receipt_missing"_s,
                 u"receipt chain %1: its signed head records #%2, but the chain ends at #%3"_s.arg(writer)
                     .arg(head->seq)
                     .arg(tip.seq));
        else if (head->seq < tip.seq)
            find(u"receipt_chain_head_mismatch"_s,
                 u"receipt chain %1 goes on to #%2 past its signed head #%3"_s.arg(writer).arg(tip.seq).arg(
                     head->seq));
        else if (head->hash != tip.hash)
            find(u"receipt_chain_head_mismatch"_s,
                 u"receipt chain %1 does not end in the link its signed head names"_s.arg(writer));
    }

    StoreError checkUnlinked()
    {
        QSqlQuery origin(m_db);
        if (!origin.exec(u"SELECT pre_chain_through FROM receipt_chain_origin WHERE id = 1"_s))
            return sqlError(u"cannot read where the receipt chains began"_s, origin.lastError());
        const bool hasOrigin = origin.next();
        const qint64 preChainThrough = hasOrigin ? origin.value(0).toLongLong() : 0;
        if (!hasOrigin)
            find(u"receipt_chain_origin_missing"_s,
                 u"the record of where the receipt chains began was deleted"_s);
        const bool sealed = m_heads.contains(ReceiptChain::kPreChainWriter);
        QSqlQuery unlinked(m_db);
        unlinked.setForwardOnly(true);
        if (!unlinked.exec(u"SELECT r.seq, r.invocation_id FROM receipts r LEFT JOIN receipt_chain_links l "
                           "ON l.receipt_seq = r.seq WHERE l.receipt_seq IS NULL ORDER BY r.seq"_s))
            return sqlError(u"cannot read the receipts"_s, unlinked.lastError());
        qint64 count = 0;
        while (unlinked.next()) {
            ++count;
            const qint64 seq = unlinked.value(0).toLongLong();
            if (seq <= preChainThrough && !sealed)
                ++m_report.preChainReceipts;
            else
                find(u"receipt_unchained"_s,
                     u"receipt row %1 (%2) is in no receipt chain: it was added outside Capdesk"_s.arg(seq)
                         .arg(unlinked.value(1).toString()));
        }
        m_report.receipts = m_linkedReceipts + count;
        return StoreError::none();
    }

    StoreError checkAnnouncedWriters()
    {
        QSqlQuery query(m_db);
        query.setForwardOnly(true);
        query.prepare(u"SELECT detail FROM events WHERE kind = ?"_s);
        query.addBindValue(ReceiptChain::kOpenedEventKind);
        if (!query.exec())
            return sqlError(u"cannot read the event log"_s, query.lastError());
        while (query.next()) {
            const QString writer = QJsonDocument::fromJson(query.value(0).toString().toUtf8())
                                       .object()
                                       .value(u"writer"_s)
                                       .toString();
            if (!m_heads.contains(writer) && !m_walked.contains(writer))
                find(u"receipt_chain_missing"_s,
                     u"receipt chain %1, opened in the event log, is gone with all its receipts"_s.arg(
                         writer));
        }
        return StoreError::none();
    }

    StoreError checkAnchor(const ReceiptLogAnchor &anchor)
    {
        m_report.anchorChecked = true;
        if (!anchor.selfSigned()) {
            find(u"anchor_invalid"_s, u"the anchor's signature does not verify with the key it carries"_s);
            return StoreError::none();
        }
        const QString keyId = anchor.keyId();
        if (!trusted(keyId))
            find(
                u"anchor_key_unknown"_s,
                u"the anchor was signed with key %1, which this directory does not sign with: the key was replaced"_s
                    .arg(keyId));
        if (anchor.events.seq > 0) {
            const StoreResult<std::optional<QString>> hash = eventHash(anchor.events.seq);
            if (!hash.ok())
                return hash.error();
            if (!hash.value()) {
                find(u"anchor_events_truncated"_s,
                     u"the anchor records event #%1, and the log ends at #%2"_s.arg(anchor.events.seq)
                         .arg(m_lastEvent));
                if (m_eventCount == 0)
                    eventsShort(anchor.events.seq, u"the anchor"_s);
            } else if (*hash.value() != anchor.events.hash)
                find(u"anchor_events_rewritten"_s,
                     u"event #%1 is not the one the anchor records"_s.arg(anchor.events.seq));
        }
        for (const ReceiptLogAnchor::Position &chain : anchor.receiptChains) {
            if (StoreError error = checkAnchoredChain(chain); error.isError())
                return error;
        }
        return StoreError::none();
    }

    StoreError checkAnchoredChain(const ReceiptLogAnchor::Position &chain)
    {
        if (chain.seq <= 0)
            return StoreError::none();
        QSqlQuery query(m_db);
        query.prepare(u"SELECT hash FROM receipt_chain_links WHERE writer = ? AND seq = ?"_s);
        query.addBindValue(chain.writer);
        query.addBindValue(chain.seq);
        if (!query.exec())
            return sqlError(u"cannot read the receipt chains"_s, query.lastError());
        const bool found = query.next();
        const LinkTip archived = m_archivedEnds.value(chain.writer);
        const QString rewritten =
            u"receipt chain %1: #%2 is not the link the anchor records"_s.arg(chain.writer).arg(chain.seq);
        if (!found && chain.seq <= archived.seq) {
            // Archived since the anchor was made: here only the stretch's last hash is left.
            if (chain.seq == archived.seq && chain.hash != archived.hash)
                find(u"anchor_receipts_rewritten"_s, rewritten);
        } else if (!found)
            find(u"anchor_receipts_truncated"_s,
                 u"the anchor records receipt chain %1 at #%2, which is gone"_s.arg(chain.writer)
                     .arg(chain.seq));
        else if (query.value(0).toString() != chain.hash)
            find(u"anchor_receipts_rewritten"_s, rewritten);
        return StoreError::none();
    }

    QSqlDatabase m_db;
    // The keys given, widened by readKeys().
    QList<PublicKey> m_keys;
    QList<PublicKey> m_listed;
    static constexpr int kMaxAttributionChecks = 10000;
    int m_attributionChecks = 0;
    ReceiptLogAudit::Report m_report;
    QHash<QString, ReceiptChainHead> m_heads;
    // Where each writer's archived stretches end: its chain goes on from there.
    QHash<QString, LinkTip> m_archivedEnds;
    QSet<QString> m_walked;
    qint64 m_eventCount = 0;
    qint64 m_lastEvent = 0;
    qint64 m_linkedReceipts = 0;
    bool m_wipeFound = false;
};

} // namespace

void ReceiptLogAudit::Report::add(Finding finding)
{
    ++findingCount;
    if (findings.size() < kMaxFindings)
        findings.append(std::move(finding));
}

QJsonObject ReceiptLogAudit::Report::toJson() const
{
    QJsonObject json = events.toJson();
    json.insert(u"intact"_s, intact());
    QJsonArray list;
    for (const Finding &finding : findings)
        list.append(QJsonObject{{u"code"_s, finding.code}, {u"message"_s, finding.message}});
    json.insert(u"findings"_s, list);
    json.insert(u"finding_count"_s, findingCount);
    json.insert(u"receipts"_s, QJsonObject{{u"checked"_s, receipts},
                                           {u"chains"_s, chains},
                                           {u"pre_chain"_s, preChainReceipts},
                                           {u"archived"_s, archivedReceipts},
                                           {u"archives"_s, archives}});
    json.insert(u"anchor"_s, anchorChecked);
    return json;
}

QString ReceiptLogAudit::Report::summary() const
{
    if (!events.intact)
        return u"Event log broken at #%1: %2"_s.arg(events.firstBrokenSeq).arg(events.problem);
    if (!intact()) {
        const QString first = findings.isEmpty() ? QString() : findings.first().message;
        return findingCount == 1 ? u"Tampering found: %1"_s.arg(first)
                                 : u"Tampering found (%1 findings), first: %2"_s.arg(findingCount).arg(first);
    }
    QString text = events.checked == 1 ? u"Event log intact (1 event)"_s
                                       : u"Event log intact (%1 events)"_s.arg(events.checked);
    const qint64 chained = receipts - preChainReceipts;
    if (chained > 0)
        text += chained == 1 ? u", 1 receipt chained"_s : u", %1 receipts chained"_s.arg(chained);
    if (preChainReceipts > 0)
        text += u", %1 receipts from before the chains, not sealed yet"_s.arg(preChainReceipts);
    if (archivedReceipts > 0)
        text += archivedReceipts == 1 ? u", 1 receipt archived"_s
                                      : u", %1 receipts archived"_s.arg(archivedReceipts);
    return text;
}

StoreResult<ReceiptLogAudit::Report> ReceiptLogAudit::run(const QSqlDatabase &db,
                                                          const QList<PublicKey> &trustedKeys,
                                                          const ReceiptLogAnchor *anchor)
{
    // One snapshot for every read: while servers write, a chain read after its head could
    // already go past it. Where a transaction is open already, it is the snapshot.
    QSqlDatabase connection = db;
    const bool snapshot = connection.transaction();
    if (snapshot && &SqlDialect::of(connection) == &SqlDialect::postgresql()) {
        QSqlQuery level(connection);
        if (!level.exec(u"SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY"_s)) {
            connection.rollback();
            return StoreError::make(StoreError::Kind::Io, u"cannot read the receipt log at one instant: "_s
                                                              + level.lastError().text());
        }
    }
    StoreResult<Report> report = Auditor(db, trustedKeys).run(anchor);
    if (snapshot)
        connection.rollback();
    return report;
}
