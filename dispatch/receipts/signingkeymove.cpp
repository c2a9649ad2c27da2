#include "dispatch/receipts/signingkeymove.h"

#include "dispatch/receipts/signingkeyvault.h"
#include "dispatch/store/defaultlocations.h"
#include "dispatch/store/sqldirectorystore.h"

using namespace Qt::StringLiterals;

SigningKeyMove::Outcome SigningKeyMove::carry(const SqlDirectoryStore &from, const SqlDirectoryStore &to)
{
    const QString fromFile = DefaultLocations::signingKeyFile(from.location());
    const QString toFile = DefaultLocations::signingKeyFile(to.location());
    QString error;
    const std::optional<SigningKey> key =
        SigningKeyVault(from.database(), fromFile, nullptr).keyInFile(&error);
    if (!key)
        return {false,
                {},
                error.isEmpty()
                    ? u"no key file at %1: the key is in the keychain, which serves both locations, "
                      "or in a file --signing-key names"_s.arg(fromFile)
                    : error};
    const SigningKeyVault destination(to.database(), toFile, nullptr);
    const std::optional<SigningKey> there = destination.keyInFile(&error);
    if (there && there->publicKey().keyId() == key->publicKey().keyId())
        return {true, toFile, {}};
    if (there || !error.isEmpty())
        return {false, {}, error.isEmpty() ? u"%1 already holds another key"_s.arg(toFile) : error};
    if (!destination.keepInFile(*key, &error))
        return {false, {}, error};
    return {true, toFile, {}};
}
