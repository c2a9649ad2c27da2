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
        enum class Result {
            NothingToCarry, // no key file beside the source
            AlreadyThere, // the destination's key file holds the same key
            ToCarry, // check() only: carry() would write it
            Carried,
            Refused, // the destination's key file holds another key, or a file is refused
        } result = Result::NothingToCarry;
        QString file; // the destination's key file
        QString reason; // why, for NothingToCarry and Refused

        bool refused() const { return result == Result::Refused; }
        bool carried() const { return result == Result::AlreadyThere || result == Result::Carried; }
    };

    // What carry() would do, writing nothing: run before a copy, so a move that would
    // strand its key is refused before anything is written.
    static Outcome check(const SqlDirectoryStore &from, const SqlDirectoryStore &to);
    static Outcome carry(const SqlDirectoryStore &from, const SqlDirectoryStore &to);
};
