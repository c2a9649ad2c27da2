#include "app/capdeskctl/ctlledger.h"

#include "app/capdeskctl/ctlarguments.h"
#include "dispatch/invoke/directoryledger.h"

namespace CtlLedger {

std::shared_ptr<DirectoryLedger> open(std::shared_ptr<SqlDirectoryStore> store, const CtlArguments &args)
{
    const QString keyFile = args.value(QStringLiteral("--signing-key"));
    return std::make_shared<DirectoryLedger>(std::move(store),
                                             keyFile.isEmpty() ? DirectoryLedger::KeyPlacement::KeychainOrFile
                                                               : DirectoryLedger::KeyPlacement::FileOnly,
                                             CapabilityGateRefusalCounter::kDefaultIntervalMs, keyFile);
}

} // namespace CtlLedger
