#include "dispatch/secrets/keychainpasswords.h"

#include "dispatch/secrets/keychainstore.h"

namespace KeychainPasswords {

std::function<QString(const QString &)> lookup()
{
    return [](const QString &entryName) {
        const KeychainStore::Read entry = KeychainStore().read(entryName);
        return entry.status == KeychainStore::Read::Status::Found ? entry.value : QString();
    };
}

} // namespace KeychainPasswords
