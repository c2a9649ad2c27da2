#pragma once

#include <memory>

struct CtlArguments;
class DirectoryLedger;
class SqlDirectoryStore;

namespace CtlLedger {

// The receipts and tokens of `store` for a command. With --signing-key FILE the key is
// that PEM file's (made there when absent) and never the keychain's, so every server that
// is given the same file signs with the same key.
std::shared_ptr<DirectoryLedger> open(std::shared_ptr<SqlDirectoryStore> store, const CtlArguments &args);

} // namespace CtlLedger
