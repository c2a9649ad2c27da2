#include "receiptlog.h"

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
    const std::optional<Receipt> receipt = Receipt::fromJson(QJsonDocument::fromJson(text.toUtf8()).object(), &error);
    if (!receipt)
        return StoreError::make(StoreError::Kind::Io, u"a stored receipt cannot be read: "_s + error);
    return *receipt;
}

} // namespace

ReceiptLog::ReceiptLog(QSqlDatabase db) : m_db(std::move(db)) {}

StoreError ReceiptLog::append(const Receipt &receipt)
{
    QSqlQuery insert(m_db);
    insert.prepare(u"INSERT INTO receipts (invocation_id, trace, key, parent, actor, runner, started_at, duration_ms, "
                   "material, status, contract_fingerprint, receipt_json) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)"_s);
    insert.addBindValue(receipt.invocationId);
    insert.addBindValue(receipt.trace);
    insert.addBindValue(receipt.key);
    insert.addBindValue(receipt.parent);
    insert.addBindValue(receipt.actor);
    insert.addBindValue(receipt.runner);
    insert.addBindValue(receipt.startedAt);
    insert.addBindValue(receipt.durationMs);
    insert.addBindValue(receipt.material ? 1 : 0);
    insert.addBindValue(receipt.status);
    insert.addBindValue(receipt.contractFingerprint);
    insert.addBindValue(QString::fromUtf8(QJsonDocument(receipt.toJson()).toJson(QJsonDocument::Compact)));
    if (!insert.exec())
        return sqlError(u"cannot write the receipt of "_s + receipt.invocationId, insert.lastError());
    return StoreError::none();
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
    return receiptFromText(query.value(0).toString());
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
