#pragma once

#include "dispatch/core/storeerror.h"
#include "dispatch/receipts/receiptsegmentseal.h"

#include <QList>
#include <QSqlDatabase>
#include <QString>

#include <optional>

class QCryptographicHash;
class QIODevice;
class SigningKey;

// `capdeskctl receipts archive --before DATE --out FILE`: moves the oldest receipts out of
// the directory into a receipt segment file (ReceiptSegmentFile), and leaves its signed
// seal behind as the anchor of what moved, in two steps so that writers never wait for the
// file: the file is written and flushed to disk from a plain read, then one write
// transaction records the seal, logs a RECEIPTS_ARCHIVED event and deletes exactly the
// rows the seal covers (the triggers of migration 0192 refuse any other). A writer's
// receipts leave as a stretch from the start of its chain, up to its first receipt that
// started at or after `before` and no further than its signed head, so every chain still
// verifies from the seal's last hash on. The caller audits the log first
// (DirectoryLedger::archiveReceipts), so a tampered chain is refused rather than sealed;
// links are recomputed once more while the file is written, and the file is verified
// before any row goes.
class ReceiptArchiver final
{
public:
    struct Outcome
    {
        std::optional<ReceiptSegmentSeal> seal; // empty when no receipt was old enough
        qint64 archiveId = 0;
    };

    static constexpr qint64 kPage = 5000;
    // Writers (one per process that ever signed) whose chains one archive takes; the rest
    // wait for the next, so a seal stays well inside a segment line's cap.
    static constexpr qsizetype kMaxRanges = 10'000;

    // `pageSize`: links read per query while the file is written.
    ReceiptArchiver(const QSqlDatabase &db, const SigningKey &key, qint64 pageSize = kPage);

    // `before`: ISO-8601 UTC, as receipts stamp started_at. `outPath` must not exist.
    StoreResult<Outcome> archive(const QString &before, const QString &outPath);

    // The id of the archive this directory recorded with `seal`, or 0 when it has none.
    static StoreResult<qint64> recordedArchive(const QSqlDatabase &db, const ReceiptSegmentSeal &seal);

private:
    StoreResult<QList<ReceiptSegmentSeal::Range>> plan(const QString &before) const;
    StoreError writeSegment(const QString &outPath, ReceiptSegmentSeal *seal) const;
    // Writes one stretch's lines and sets its throughHash to where the links it wrote end.
    StoreError writeStretch(QIODevice &out, QCryptographicHash &hash, ReceiptSegmentSeal::Range &range,
                            qint64 *count) const;
    // `fileName` goes into the RECEIPTS_ARCHIVED event, to find the segment by later.
    // `committing` is set once COMMIT was sent: a failure after it leaves the outcome open.
    StoreResult<qint64> record(const ReceiptSegmentSeal &seal, const QString &fileName,
                               bool *committing) const;

    QSqlDatabase m_db;
    const SigningKey &m_key;
    qint64 m_pageSize;
};
