#pragma once

#include "dispatch/core/storeerror.h"
#include "dispatch/receipts/receipt.h"
#include "dispatch/store/preparedstatements.h"

#include <QList>
#include <QSqlDatabase>

#include <optional>

class EventLog;
class SigningKey;
struct ReceiptChainHead;

// The append-only `receipts` table (SPEC §6) in the directory's own file. Rows are never
// updated or deleted (triggers refuse both), and nothing links them to `directory`, so a
// receipt outlives the row it describes.
//
// Each ReceiptLog is one writer: it links its receipts into a chain of its own
// (ReceiptChain) and keeps that chain's head in memory, so writers never read or lock one
// another's chain. The triggers only stop mistakes; the chains and their signed heads are
// what make a deletion or edit by someone holding the file visible (ReceiptLogAudit).
class ReceiptLog final
{
public:
    struct Query
    {
        QString key; // empty: every key
        QString parent; // non-empty: only the children of this invocation
        qint64 limit = -1; // newest first; -1: all
    };

    // How the row stored for an invocation stands to its link in a receipt chain.
    enum class LinkState {
        Linked, // its JSON is what was linked
        Altered, // its JSON was edited after it was linked
        Unlinked, // in no chain (written before the chains and not sealed, or added outside)
    };

    explicit ReceiptLog(const QSqlDatabase &db);

    // Commits the signed receipt, its link and this writer's head signed with `key` in one
    // durable transaction (synchronous=FULL) before returning.
    StoreError append(const Receipt &receipt, const SigningKey &key);
    // The same for several receipts in one transaction, so they share one durable flush
    // (group commit): their links and one head signature. One error per receipt, in order;
    // a receipt whose statement fails fails alone, and a failed commit, or a transaction
    // SQLite abandons (a full disk), fails them all.
    QList<StoreError> appendBatch(const QList<Receipt> &receipts, const SigningKey &key);
    // Links the receipts written before migration 0190 into the pre-chain writer's chain,
    // in seq order, and signs its head. Nothing happens once they are sealed.
    StoreError sealPreChain(const SigningKey &key);
    // Conflict when the row found holds a receipt signed for another invocation.
    StoreResult<Receipt> find(const QString &invocationId) const;
    StoreResult<QList<Receipt>> list(const Query &query) const;
    // NotFound when no row is stored for `invocationId`.
    StoreResult<LinkState> linkState(const QString &invocationId) const;
    // The latest `before` of the archives that moved receipts out of this directory
    // (ReceiptArchiver), or empty when none did.
    StoreResult<QString> archivedBefore() const;
    // How many writers' chains have a signed head.
    StoreResult<qint64> chainCount() const;
    const QString &writer() const { return m_writer; }

private:
    struct Tip
    {
        qint64 seq = 0;
        QString hash;
    };

    StoreResult<Tip> link(const QString &writer, const Tip &tip, qint64 receiptSeq,
                          const QByteArray &receiptJson);
    // The receipt's row and its link after `tip`, which moves on; inside a transaction.
    StoreError insert(const Receipt &receipt, Tip *tip);
    // insert() under a savepoint: on failure nothing of it stays and `tip` stays put;
    // `broken` when the transaction itself is lost.
    StoreError insertAlone(const Receipt &receipt, Tip *tip, bool *broken);
    StoreError signHead(const QString &writer, const Tip &tip, const SigningKey &key);
    StoreError announce(EventLog &events, const QString &writer);

    QSqlDatabase m_db;
    // The statements each receipt of a batch runs: a flow writes eleven at a time.
    PreparedStatements m_statements{m_db};
    QString m_writer;
    std::optional<Tip> m_tip; // empty until this writer's chain is opened
};
