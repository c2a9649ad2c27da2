#pragma once

#include <QByteArray>
#include <QString>

// The hash links of the receipt chains (migration 0190): each writer appends its receipts
// to a chain of its own, link n hashing {writer, seq, prev_hash, receipt_sha256}, so a
// receipt removed, reordered or edited after it was linked breaks its writer's chain.
class ReceiptChain final
{
public:
    // The writer into whose chain the receipts written before migration 0190 are sealed.
    static const QString kPreChainWriter;
    // prev_hash of a chain's first link: 64 '0'.
    static const QString kGenesisHash;
    // The event kind that names a writer when it opens its chain.
    static const QString kOpenedEventKind;

    // A fresh writer id, "w_" and 16 lowercase hex digits from the system's random source.
    static QString newWriterId();
    // Lowercase hex SHA-256 of the receipt's stored JSON text, byte for byte.
    static QString receiptHash(const QByteArray &receiptJson);
    // Lowercase hex SHA-256 of the canonical JSON of the link's four members.
    static QString linkHash(const QString &writer, qint64 seq, const QString &prevHash,
                            const QString &receiptHash);
};
