#pragma once

#include "dispatch/core/storeerror.h"
#include "dispatch/receipts/publickey.h"
#include "dispatch/receipts/signingkeysuccession.h"

#include <QList>
#include <QSqlDatabase>

// The directory's signing_keys as listed in the file: every public key receipts may have
// been signed with, newest first, and the signed successions of those made by
// `signing-key new`. Whoever can write the file can add to both, so the list says which
// keys exist, never which to trust (SigningKeySuccession::widen does that).
struct SigningKeyList
{
    QList<PublicKey> keys;
    QList<SigningKeySuccession> successions;

    // No directory makes this many keys; past it the file was edited, and each key read
    // costs every command and check a parse and signature checks.
    static constexpr int kMaxKeys = 1000;

    // A row whose key or succession does not parse verifies nothing and is passed over.
    // More than kMaxKeys rows is an error, not a list cut short.
    static StoreResult<SigningKeyList> read(const QSqlDatabase &db);

    bool lists(const PublicKey &key) const;
};
