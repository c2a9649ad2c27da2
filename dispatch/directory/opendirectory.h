#pragma once

#include <QMap>
#include <QString>

#include <memory>

class CapabilityTokenStore;
class DirectoryHistory;
class DirectoryLedger;
class DirectoryStore;
class Dispatcher;

// One opened directory as the capabilities it offers. Every back end has a store and a
// dispatcher; the rest is there only where the back end has it, and null otherwise (a
// server keeps its receipts, tokens, event log and signing key to itself). Callers ask
// for a capability and never for the kind of store behind it.
struct OpenDirectory
{
    std::shared_ptr<DirectoryStore> store;
    std::shared_ptr<Dispatcher> dispatcher;
    // Receipts, their signing key and confirmations.
    std::shared_ptr<DirectoryLedger> ledger;
    // The event log and the receipt chains, for a row's history and the chain check.
    std::shared_ptr<const DirectoryHistory> history;
    // Capability tokens: issue, list, revoke.
    std::shared_ptr<CapabilityTokenStore> tokens;
    // Columns this directory cannot change, each with the reason in plain words.
    QMap<QString, QString> readOnlyColumns;
    // Whether rows run on this build's builtins, so the linter may judge the fn rows'
    // builtin names (a server may ship others).
    bool builtinsAreLocal = false;

    bool isOpen() const { return store && dispatcher; }
};
