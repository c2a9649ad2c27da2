#include "dispatch/receipts/receiptarchiver.h"

#include "dispatch/core/isotime.h"
#include "dispatch/receipts/receiptchain.h"
#include "dispatch/receipts/receiptsegmentfile.h"
#include "dispatch/receipts/signingkey.h"
#include "dispatch/store/eventlog.h"
#include "dispatch/store/writetransaction.h"

#include <QCryptographicHash>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QJsonDocument>
#include <QSqlError>
#include <QSqlQuery>

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace {

StoreError sqlError(const QString &what, const QSqlQuery &query)
{
    return StoreError::make(StoreError::Kind::Io, what + u": "_s + query.lastError().text());
}

struct Tip
{
    qint64 seq = 0;
    QString hash = ReceiptChain::kGenesisHash;
};

} // namespace

ReceiptArchiver::ReceiptArchiver(const QSqlDatabase &db, const SigningKey &key, qint64 pageSize)
    : m_db(db), m_key(key), m_pageSize(std::max<qint64>(1, pageSize))
{}

StoreResult<QList<ReceiptSegmentSeal::Range>> ReceiptArchiver::plan(const QString &before) const
{
    QHash<QString, Tip> archived;
    QSqlQuery ends(m_db);
    ends.setForwardOnly(true);
    if (!ends.exec(u"SELECT a.writer, a.through_seq, a.through_hash FROM receipt_archive_ranges a "
                   "WHERE a.through_seq = (SELECT MAX(b.through_seq) FROM receipt_archive_ranges b "
                   "WHERE b.writer = a.writer)"_s))
        return sqlError(u"cannot read the receipt archives"_s, ends);
    while (ends.next())
        archived.insert(ends.value(0).toString(), Tip{ends.value(1).toLongLong(), ends.value(2).toString()});

    // A chain leaves up to its first receipt that started at or after `before`.
    QHash<QString, qint64> firstKept;
    QSqlQuery kept(m_db);
    kept.setForwardOnly(true);
    kept.prepare(u"SELECT l.writer, MIN(l.seq) FROM receipt_chain_links l JOIN receipts r "
                 "ON r.seq = l.receipt_seq WHERE r.started_at >= ? GROUP BY l.writer"_s);
    kept.addBindValue(before);
    if (!kept.exec())
        return sqlError(u"cannot read the receipt chains"_s, kept);
    while (kept.next())
        firstKept.insert(kept.value(0).toString(), kept.value(1).toLongLong());

    QList<ReceiptSegmentSeal::Range> ranges;
    QSqlQuery heads(m_db);
    heads.setForwardOnly(true);
    if (!heads.exec(u"SELECT writer, seq FROM receipt_chain_heads ORDER BY writer"_s))
        return sqlError(u"cannot read the receipt chain heads"_s, heads);
    while (heads.next()) {
        const QString writer = heads.value(0).toString();
        const Tip from = archived.value(writer);
        qint64 through = heads.value(1).toLongLong();
        if (const auto kept = firstKept.constFind(writer); kept != firstKept.constEnd())
            through = std::min(through, *kept - 1);
        if (through > from.seq && ranges.size() < kMaxRanges)
            ranges.append(ReceiptSegmentSeal::Range{writer, from.seq + 1, from.hash, through, QString()});
    }
    return ranges;
}

StoreError ReceiptArchiver::writeStretch(QIODevice &out, QCryptographicHash &hash,
                                         ReceiptSegmentSeal::Range &range, qint64 *count) const
{
    Tip tip{range.fromSeq - 1, range.fromPrevHash};
    QSqlQuery page(m_db);
    page.setForwardOnly(true);
    page.prepare(u"SELECT l.seq, l.prev_hash, l.hash, r.receipt_json FROM receipt_chain_links l "
                 "LEFT JOIN receipts r ON r.seq = l.receipt_seq "
                 "WHERE l.writer = ? AND l.seq BETWEEN ? AND ? ORDER BY l.seq"_s);
    const auto broken = [&range](qint64 seq, const QString &why) {
        return StoreError::make(
            StoreError::Kind::Conflict,
            u"receipt chain %1 %2 at #%3; nothing was archived. `capdeskctl log --verify` "
            "names what changed"_s.arg(range.writer, why)
                .arg(seq));
    };
    // Pages, because PostgreSQL's driver holds a whole result in memory.
    while (tip.seq < range.throughSeq) {
        page.addBindValue(range.writer);
        page.addBindValue(tip.seq + 1);
        page.addBindValue(std::min(range.throughSeq, tip.seq + m_pageSize));
        if (!page.exec())
            return sqlError(u"cannot read the receipts to archive"_s, page);
        const qint64 pageStart = tip.seq;
        while (page.next()) {
            const qint64 seq = page.value(0).toLongLong();
            if (seq != tip.seq + 1 || page.value(1).toString() != tip.hash)
                return broken(tip.seq + 1, u"has a gap or a broken link"_s);
            if (page.value(3).isNull())
                return broken(seq, u"lost a receipt"_s);
            const QByteArray receiptJson = page.value(3).toString().toUtf8();
            const QString linkHash = page.value(2).toString();
            if (ReceiptChain::linkHash(range.writer, seq, tip.hash, ReceiptChain::receiptHash(receiptJson))
                != linkHash)
                return broken(seq, u"holds a receipt altered after it was linked"_s);
            const QByteArray line =
                ReceiptSegmentFile::receiptLine(range.writer, seq, tip.hash, linkHash, receiptJson);
            hash.addData(line);
            if (out.write(line) != line.size())
                return StoreError::make(StoreError::Kind::Io,
                                        u"cannot write the segment: "_s + out.errorString());
            tip = Tip{seq, linkHash};
            ++*count;
        }
        if (page.lastError().isValid())
            return sqlError(u"cannot read all the receipts to archive"_s, page);
        if (tip.seq == pageStart)
            return broken(tip.seq + 1, u"has a gap"_s);
    }
    range.throughHash = tip.hash;
    return StoreError::none();
}

StoreError ReceiptArchiver::writeSegment(const QString &outPath, ReceiptSegmentSeal *seal) const
{
    // Created here or not at all: a file that appeared since the plan is never replaced.
    QFile out(outPath);
    if (!out.open(QIODevice::WriteOnly | QIODevice::NewOnly))
        return StoreError::make(out.exists() ? StoreError::Kind::AlreadyExists : StoreError::Kind::Io,
                                u"cannot create %1: %2"_s.arg(outPath, out.errorString()));
    const auto failed = [&out, &outPath](StoreError error) {
        out.close();
        QFile::remove(outPath);
        return error;
    };
    const auto writeError = [&out, &outPath] {
        return StoreError::make(StoreError::Kind::Io,
                                u"cannot write %1: %2"_s.arg(outPath, out.errorString()));
    };
    QCryptographicHash hash(QCryptographicHash::Sha256);
    const QByteArray header = ReceiptSegmentFile::headerLine();
    hash.addData(header);
    if (out.write(header) != header.size())
        return failed(writeError());
    for (ReceiptSegmentSeal::Range &range : seal->ranges) {
        if (StoreError error = writeStretch(out, hash, range, &seal->receiptCount); error.isError())
            return failed(error);
    }
    seal->linesSha256 = QString::fromLatin1(hash.result().toHex());
    seal->signWith(m_key);
    const QByteArray sealLine = QJsonDocument(seal->toJson()).toJson(QJsonDocument::Compact) + '\n';
    if (out.write(sealLine) != sealLine.size() || !out.flush())
        return failed(writeError());
    // The rows go once the file, and its name in the folder, are on disk; never before.
    if (::fsync(out.handle()) != 0)
        return failed(StoreError::make(StoreError::Kind::Io, u"cannot flush %1 to disk"_s.arg(outPath)));
    out.close();
    const int folder =
        ::open(QFile::encodeName(QFileInfo(outPath).absolutePath()).constData(), O_RDONLY | O_DIRECTORY);
    const bool folderSynced = folder >= 0 && ::fsync(folder) == 0;
    if (folder >= 0)
        ::close(folder);
    if (!folderSynced)
        return failed(
            StoreError::make(StoreError::Kind::Io, u"cannot flush the folder of %1 to disk"_s.arg(outPath)));
    // Read back as anyone will read it, before a single row goes.
    const ReceiptSegmentFile::Check check = ReceiptSegmentFile::verify(outPath, {m_key.publicKey()});
    if (!check.ok())
        return failed(StoreError::make(StoreError::Kind::Io, u"%1 does not verify as written (%2: %3)"_s.arg(
                                                                 outPath, check.code, check.message)));
    return StoreError::none();
}

StoreResult<qint64> ReceiptArchiver::record(const ReceiptSegmentSeal &seal, const QString &fileName,
                                            bool *committing) const
{
    WriteTransaction transaction(m_db);
    if (transaction.startError().isError())
        return transaction.startError();
    QSqlQuery query(m_db);
    // Another archive may have run since the plan; its stretches would overlap this one's.
    query.prepare(u"SELECT COALESCE(MAX(through_seq), 0) FROM receipt_archive_ranges WHERE writer = ?"_s);
    for (const ReceiptSegmentSeal::Range &range : seal.ranges) {
        query.addBindValue(range.writer);
        if (!query.exec() || !query.next())
            return sqlError(u"cannot read the receipt archives"_s, query);
        if (query.value(0).toLongLong() != range.fromSeq - 1)
            return StoreError::make(
                StoreError::Kind::Conflict,
                u"another archive of receipt chain %1 was made meanwhile"_s.arg(range.writer));
    }
    if (!query.exec(u"SELECT COALESCE(MAX(id), 0) + 1 FROM receipt_archives"_s) || !query.next())
        return sqlError(u"cannot read the receipt archives"_s, query);
    const qint64 id = query.value(0).toLongLong();
    const QJsonObject sealJson = seal.toJson();
    query.prepare(
        u"INSERT INTO receipt_archives (id, made_at, started_before, receipt_count, seal_json, signature) "
        "VALUES (?, ?, ?, ?, ?, ?)"_s);
    for (const QVariant &value :
         {QVariant(id), QVariant(seal.madeAt), QVariant(seal.before), QVariant(seal.receiptCount),
          QVariant(QString::fromUtf8(QJsonDocument(sealJson).toJson(QJsonDocument::Compact))),
          QVariant(seal.signature)})
        query.addBindValue(value);
    if (!query.exec())
        return sqlError(u"cannot record the archive"_s, query);
    QSqlQuery ranges(m_db);
    ranges.prepare(
        u"INSERT INTO receipt_archive_ranges (archive_id, writer, from_seq, through_seq, through_hash) "
        "VALUES (?, ?, ?, ?, ?)"_s);
    QSqlQuery receipts(m_db);
    receipts.prepare(u"DELETE FROM receipts WHERE seq IN (SELECT receipt_seq FROM receipt_chain_links "
                     "WHERE writer = ? AND seq BETWEEN ? AND ?)"_s);
    QSqlQuery links(m_db);
    links.prepare(u"DELETE FROM receipt_chain_links WHERE writer = ? AND seq BETWEEN ? AND ?"_s);
    for (const ReceiptSegmentSeal::Range &range : seal.ranges) {
        for (const QVariant &value : {QVariant(id), QVariant(range.writer), QVariant(range.fromSeq),
                                      QVariant(range.throughSeq), QVariant(range.throughHash)})
            ranges.addBindValue(value);
        if (!ranges.exec())
            return sqlError(u"cannot record the archive"_s, ranges);
        for (QSqlQuery *remove : {&receipts, &links}) {
            remove->addBindValue(range.writer);
            remove->addBindValue(range.fromSeq);
            remove->addBindValue(range.throughSeq);
            if (!remove->exec())
                return sqlError(u"cannot remove the archived receipts"_s, *remove);
            if (remove->numRowsAffected() != range.throughSeq - range.fromSeq + 1)
                return StoreError::make(
                    StoreError::Kind::Conflict,
                    u"receipt chain %1 changed while it was archived"_s.arg(range.writer));
        }
    }
    LogEvent event;
    event.kind = u"RECEIPTS_ARCHIVED"_s;
    event.action = u"archive"_s;
    event.actor = u"owner:local"_s;
    event.detail = QJsonObject{{u"archive_id"_s, id},
                               {u"file"_s, fileName},
                               {u"before"_s, seal.before},
                               {u"receipt_count"_s, seal.receiptCount},
                               {u"lines_sha256"_s, seal.linesSha256},
                               {u"ranges"_s, sealJson.value(u"ranges"_s)}};
    if (StoreError error = EventLog(m_db).append(event); error.isError())
        return error;
    *committing = true;
    if (StoreError error = transaction.commit(); error.isError())
        return error;
    return id;
}

StoreResult<ReceiptArchiver::Outcome> ReceiptArchiver::archive(const QString &before, const QString &outPath)
{
    if (QFileInfo::exists(outPath))
        return StoreError::make(StoreError::Kind::AlreadyExists,
                                u"%1 exists; an archive never overwrites a file"_s.arg(outPath));
    StoreResult<QList<ReceiptSegmentSeal::Range>> planned = plan(before);
    if (!planned.ok())
        return planned.error();
    Outcome outcome;
    if (planned.value().isEmpty())
        return outcome;
    ReceiptSegmentSeal seal;
    seal.madeAt = IsoTime::nowUtc();
    seal.before = before;
    seal.ranges = planned.value();
    if (StoreError error = writeSegment(outPath, &seal); error.isError())
        return error;
    bool committing = false;
    const StoreResult<qint64> recorded = record(seal, QFileInfo(outPath).fileName(), &committing);
    if (!recorded.ok() && committing) {
        // The server may have committed before the answer was lost: the file may be the
        // only copy of receipts already deleted, so it stays.
        return StoreError::make(recorded.error().kind,
                                recorded.error().message
                                    + u"; the archive may or may not be recorded, so %1 is kept: `capdeskctl "
                                      "verify-receipt %1` names its archive_id when it is"_s.arg(outPath));
    }
    if (!recorded.ok()) {
        // Nothing left the directory, so the file would only mislead.
        const QString fate = QFile::remove(outPath)
                                 ? u"%1 was removed"_s.arg(outPath)
                                 : u"remove %1, which could not be removed here"_s.arg(outPath);
        return StoreError::make(recorded.error().kind,
                                recorded.error().message + u"; nothing was archived; "_s + fate);
    }
    outcome.seal = std::move(seal);
    outcome.archiveId = recorded.value();
    return outcome;
}

StoreResult<qint64> ReceiptArchiver::recordedArchive(const QSqlDatabase &db, const ReceiptSegmentSeal &seal)
{
    QSqlQuery query(db);
    query.prepare(u"SELECT id, seal_json FROM receipt_archives WHERE signature = ?"_s);
    query.addBindValue(seal.signature);
    if (!query.exec())
        return sqlError(u"cannot read the receipt archives"_s, query);
    const QJsonObject sealJson = seal.toJson();
    while (query.next()) {
        if (QJsonDocument::fromJson(query.value(1).toString().toUtf8()).object() == sealJson)
            return query.value(0).toLongLong();
    }
    return qint64(0);
}
