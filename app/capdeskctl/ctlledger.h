#pragma once

#include <QList>
#include <QString>

#include <memory>

struct CtlArguments;
class DirectoryLedger;
class PublicKey;
struct ReceiptLogAnchor;
class SqlDirectoryStore;

namespace CtlLedger {

// The receipts and tokens of `store` for a command. With --signing-key FILE the key is
// that PEM file's (made there when absent) and never the keychain's, so every server that
// is given the same file signs with the same key.
std::shared_ptr<DirectoryLedger> open(std::shared_ptr<SqlDirectoryStore> store, const CtlArguments &args);

// The key a check of `ledger`'s chain heads trusts (`log --verify`, `migrate`): the one
// whose private half this machine holds, not whatever public keys the directory lists
// (anyone who can write it can add one), or the one that signed `anchor` (may be null).
// Empty when the heads cannot be checked, with `why` (may be null) saying what is missing
// when there are heads to check; a check never makes a key.
QList<PublicKey> trustedKeys(DirectoryLedger &ledger, const ReceiptLogAnchor *anchor = nullptr,
                             QString *why = nullptr);

} // namespace CtlLedger
