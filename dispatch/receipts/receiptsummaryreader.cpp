#include "dispatch/receipts/receiptsummaryreader.h"

#include "dispatch/store/sqldirectorystore.h"

#include <QSqlError>
#include <QSqlQuery>

using namespace Qt::StringLiterals;

ReceiptSummaryReader::ReceiptSummaryReader(std::shared_ptr<const SqlDirectoryStore> store)
    : m_store(std::move(store))
{}

StoreError ReceiptSummaryReader::read(qint64 afterSeq, int newestOnly,
                                      const std::function<void(const ReceiptSummaryView &)> &sink) const
{
    const SqlDirectoryStore &store = *m_store;
    return store.withReadConnection([&](QSqlDatabase &db) -> StoreError {
        QString sql =
            u"SELECT seq, invocation_id, trace, parent, key, actor, runner, started_at, status, duration_ms, "
            "material FROM receipts WHERE seq > :after"_s;
        if (newestOnly > 0)
            sql = u"SELECT * FROM ("_s + sql + u" ORDER BY seq DESC LIMIT "_s + QString::number(newestOnly)
                  + u") AS newest"_s; // PostgreSQL names every subquery in FROM
        sql += u" ORDER BY seq"_s;
        QSqlQuery query(db);
        query.setForwardOnly(true);
        query.prepare(sql);
        query.bindValue(u":after"_s, afterSeq);
        if (!query.exec())
            return StoreError::make(StoreError::Kind::Io, u"cannot read the receipts of %1: %2"_s.arg(
                                                              store.location(), query.lastError().text()));
        QByteArray text[8];
        auto view = [&text](int i) {
            return std::string_view(text[i].constData(), std::size_t(text[i].size()));
        };
        ReceiptSummaryView receipt;
        while (query.next()) {
            for (int i = 0; i < 8; ++i)
                text[i] = query.value(i + 1).toString().toUtf8();
            receipt.seq = query.value(0).toLongLong();
            receipt.invocationId = view(0);
            receipt.trace = view(1);
            receipt.parent = view(2);
            receipt.key = view(3);
            receipt.actor = view(4);
            receipt.runner = view(5);
            receipt.startedAt = view(6);
            receipt.status = view(7);
            receipt.durationMs = query.value(9).toLongLong();
            receipt.material = query.value(10).toLongLong() != 0;
            sink(receipt);
        }
        if (query.lastError().isValid())
            return StoreError::make(StoreError::Kind::Io, u"cannot read the receipts of %1: %2"_s.arg(
                                                              store.location(), query.lastError().text()));
        return StoreError::none();
    });
}
