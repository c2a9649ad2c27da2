#include "dispatch/receipts/directoryhistory.h"

#include "dispatch/receipts/publickey.h"
#include "dispatch/receipts/signingkey.h"
#include "dispatch/receipts/signingkeyvault.h"
#include "dispatch/store/eventlog.h"
#include "dispatch/store/sqldirectorystore.h"

namespace {

// `read` on a connection usable from this thread (SqlDirectoryStore::withReadConnection).
template<typename T>
StoreResult<T> readOn(const SqlDirectoryStore &store,
                      const std::function<StoreResult<T>(QSqlDatabase &)> &read)
{
    std::optional<StoreResult<T>> result;
    const StoreError error = store.withReadConnection([&](QSqlDatabase &db) {
        result = read(db);
        return result->ok() ? StoreError::none() : result->error();
    });
    if (error.isError())
        return error;
    return std::move(*result);
}

} // namespace

DirectoryHistory::DirectoryHistory(std::shared_ptr<const SqlDirectoryStore> store) : m_store(std::move(store))
{}

StoreResult<QList<LogEvent>> DirectoryHistory::events(const QString &key) const
{
    return readOn<QList<LogEvent>>(*m_store, [&key](QSqlDatabase &db) { return EventLog(db).events(key); });
}

StoreResult<ReceiptLogAudit::Report> DirectoryHistory::audit(const QList<PublicKey> &trustedKeys,
                                                             const ReceiptLogAnchor *anchor) const
{
    return readOn<ReceiptLogAudit::Report>(
        *m_store, [&](QSqlDatabase &db) { return ReceiptLogAudit::run(db, trustedKeys, anchor); });
}

StoreResult<ReceiptLogAudit::Report> DirectoryHistory::auditTrustingListedKeys() const
{
    return readOn<ReceiptLogAudit::Report>(*m_store, [](QSqlDatabase &db) {
        return ReceiptLogAudit::run(db, SigningKeyVault(db, QString(), nullptr).publicKeys());
    });
}

StoreResult<DirectoryHistory::Anchoring> DirectoryHistory::anchor(const SigningKey &key) const
{
    // The audit and the anchor read one connection, so the anchor is of the log audited.
    return readOn<Anchoring>(*m_store, [&key](QSqlDatabase &db) -> StoreResult<Anchoring> {
        StoreResult<ReceiptLogAudit::Report> audited = ReceiptLogAudit::run(db, {key.publicKey()});
        if (!audited.ok())
            return audited.error();
        Anchoring anchoring;
        anchoring.report = std::move(audited.value());
        if (!anchoring.report.intact())
            return anchoring;
        StoreResult<ReceiptLogAnchor> made = ReceiptLogAnchor::make(db, key);
        if (!made.ok())
            return made.error();
        anchoring.anchor = std::move(made.value());
        return anchoring;
    });
}
