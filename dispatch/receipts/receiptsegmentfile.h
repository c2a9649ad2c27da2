#pragma once

#include "dispatch/receipts/receiptsegmentseal.h"

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QString>

#include <optional>

class PublicKey;

// A receipt segment file, as `capdeskctl receipts archive` writes it: JSON lines, the
// header first, then one line per archived receipt (its chain link and its stored JSON,
// byte for byte), writer by writer in chain order, and the signed seal last. It verifies
// alone: every link is recomputed from its receipt and follows the one before, the lines
// hash to what the seal says, the stretches match the seal's, and the seal's signature
// holds with a trusted key. Read as a stream, so a file of any length costs one line of
// memory; a file from anywhere is hostile, so lines are capped and every field checked.
class ReceiptSegmentFile final
{
public:
    static inline const QString kHeaderType = QStringLiteral("capdesk.receipt_segment");
    static constexpr int kVersion = 1;
    static constexpr qint64 kMaxLineBytes = 8 * 1024 * 1024;

    // What a check found. `code` is empty when the file verified; otherwise one of
    // segment_unreadable, segment_malformed, segment_truncated (no seal at the end),
    // segment_altered (a receipt or a line no longer hashes to what was sealed),
    // segment_chain_broken, segment_seal_mismatch (the lines are not the stretches the
    // seal names), segment_seal_invalid, segment_key_unknown.
    struct Check
    {
        QString code;
        QString message;
        std::optional<ReceiptSegmentSeal> seal; // set once the seal line parsed
        qint64 receipts = 0;
        std::optional<QJsonObject> found; // the receipt asked for, when the file holds it

        bool ok() const { return code.isEmpty(); }
    };

    // The header line, newline included.
    static QByteArray headerLine();
    // One receipt's line, newline included.
    static QByteArray receiptLine(const QString &writer, qint64 seq, const QString &prevHash,
                                  const QString &hash, const QByteArray &receiptJson);
    // Whether `path` reads as a segment, even with its header damaged (reads at most its
    // first and last 64 KiB).
    static bool looksLikeSegment(const QString &path);
    // Verifies the whole file against `trustedKeys`, and picks out the receipt of
    // `invocationId` on the way when it is not empty.
    static Check verify(const QString &path, const QList<PublicKey> &trustedKeys,
                        const QString &invocationId = QString());
};
