#include "dispatch/receipts/signingkeymove.h"

#include "dispatch/receipts/signingkeyvault.h"
#include "dispatch/store/defaultlocations.h"
#include "dispatch/store/sqldirectorystore.h"

#include <optional>

using namespace Qt::StringLiterals;

namespace {

using Outcome = SigningKeyMove::Outcome;
using Result = Outcome::Result;

struct Plan
{
    Outcome outcome;
    std::optional<SigningKey> key;
};

Plan plan(const SqlDirectoryStore &from, const SqlDirectoryStore &to)
{
    const QString fromFile = DefaultLocations::signingKeyFile(from.location());
    const QString toFile = DefaultLocations::signingKeyFile(to.location());
    QString error;
    std::optional<SigningKey> key = SigningKeyVault(from.database(), fromFile, nullptr).keyInFile(&error);
    if (!key && !error.isEmpty())
        return {{Result::Refused, toFile, error}, {}};
    if (!key)
        return {{Result::NothingToCarry, toFile,
                 u"no key file beside the source (%1); a key kept in the keychain is found from the new "
                 "location as well"_s.arg(fromFile)},
                {}};
    const std::optional<SigningKey> there = SigningKeyVault(to.database(), toFile, nullptr).keyInFile(&error);
    if (there && there->publicKey().keyId() == key->publicKey().keyId())
        return {{Result::AlreadyThere, toFile, {}}, {}};
    if (there)
        return {{Result::Refused, toFile,
                 u"%1 already holds another signing key; move it away first, or the new location "
                 "could not verify the receipts signed before the move"_s.arg(toFile)},
                {}};
    if (!error.isEmpty())
        return {{Result::Refused, toFile, error}, {}};
    return {{Result::ToCarry, toFile, {}}, key};
}

} // namespace

Outcome SigningKeyMove::check(const SqlDirectoryStore &from, const SqlDirectoryStore &to)
{
    return plan(from, to).outcome;
}

Outcome SigningKeyMove::carry(const SqlDirectoryStore &from, const SqlDirectoryStore &to)
{
    Plan planned = plan(from, to);
    if (planned.outcome.result != Result::ToCarry)
        return planned.outcome;
    QString error;
    if (!SigningKeyVault(to.database(), planned.outcome.file, nullptr).keepInFile(*planned.key, &error))
        return {Result::Refused, planned.outcome.file, error};
    return {Result::Carried, planned.outcome.file, {}};
}
