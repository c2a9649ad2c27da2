#pragma once

#include "dispatch/core/storeerror.h"
#include "dispatch/receipts/receiptloganchor.h"
#include "dispatch/receipts/receiptlogaudit.h"
#include "dispatch/store/logevent.h"

#include <QList>

#include <memory>
#include <optional>

class PublicKey;
class SigningKey;
class SqlDirectoryStore;

// The history of one local directory: its event log and the receipt chains beside it, read
// on any thread (through the store's own connection on its thread, else a short-lived
// read-only one). The History tab and `capdeskctl log` read here, so neither holds SQL.
class DirectoryHistory final
{
public:
    explicit DirectoryHistory(std::shared_ptr<const SqlDirectoryStore> store);

    // Newest first; an empty key gives every event.
    StoreResult<QList<LogEvent>> events(const QString &key = QString()) const;
    // ReceiptLogAudit over the whole file, its heads checked against `trustedKeys`.
    StoreResult<ReceiptLogAudit::Report> audit(const QList<PublicKey> &trustedKeys,
                                               const ReceiptLogAnchor *anchor = nullptr) const;
    // The same, trusting the public keys the file lists (the History tab's view; `log
    // --verify` trusts only a key whose private half it holds).
    StoreResult<ReceiptLogAudit::Report> auditTrustingListedKeys() const;

    struct Anchoring
    {
        ReceiptLogAudit::Report report;
        std::optional<ReceiptLogAnchor> anchor; // empty when the report is not intact
    };
    // An anchor of where the log and every chain end now, signed with `key`; none when the
    // log does not verify against `key`, since an anchor would vouch for the tampering.
    StoreResult<Anchoring> anchor(const SigningKey &key) const;

private:
    std::shared_ptr<const SqlDirectoryStore> m_store;
};
