#pragma once

#include "receipt.h"
#include "storeerror.h"

#include <QList>
#include <QSqlDatabase>

// The append-only `receipts` table (SPEC §6) in the directory's own file. Rows are never
// updated or deleted (triggers refuse both), and nothing links them to `directory`, so a
// receipt outlives the row it describes.
class ReceiptLog final
{
public:
    struct Query
    {
        QString key;       // empty: every key
        QString parent;    // non-empty: only the children of this invocation
        qint64 limit = -1; // newest first; -1: all
    };

    explicit ReceiptLog(QSqlDatabase db);

    // Commits the signed receipt durably (synchronous=FULL) before returning.
    StoreError append(const Receipt &receipt);
    StoreResult<Receipt> find(const QString &invocationId) const;
    StoreResult<QList<Receipt>> list(const Query &query) const;

private:
    QSqlDatabase m_db;
};
