#pragma once

#include <QString>

class SqlDirectoryStore;

// A directory moved to a new location (`capdeskctl migrate`) keeps its receipt-signing key.
// A key in the keychain is found from either location, since its entry is named by the
// key; a key file is looked for beside the directory (DefaultLocations::signingKeyFile),
// so it is carried there, or `log --verify` at the new location would hold no key for the
// heads signed before the move.
class SigningKeyMove final
{
public:
    struct Outcome
    {
        bool carried = false;
        QString file; // where the key now is, when carried
        QString reason; // why not, otherwise
    };

    static Outcome carry(const SqlDirectoryStore &from, const SqlDirectoryStore &to);
};
