#pragma once

#include "dispatch/core/storeerror.h"

#include <QStringList>

class DirectoryStore;
struct CapabilityToken;

// Which of a token's keys and categories (SPEC §7) name nothing in the directory. Such a
// name is no error: the gate compares names, so a token may name a row to be made later,
// and reaches it once it exists. But it is more often a typo that leaves the token unable
// to call anything, so the Tokens dialog warns about it and `capdeskctl token create`
// refuses it unless given --allow-unknown.
class TokenScopeCheck final
{
public:
    struct Names
    {
        QStringList keys;
        QStringList categories;

        bool isEmpty() const { return keys.isEmpty() && categories.isEmpty(); }
    };

    // The directory's keys and categories, sorted, each once; a row without a category
    // adds none. Read from the row summaries, so no row is read whole.
    static StoreResult<Names> known(const DirectoryStore &store);
    // The token's keys and categories that `known` lacks, in the token's order. Names are
    // compared exactly, as the gate compares them.
    static Names unknown(const CapabilityToken &token, const Names &known);
    // "no row has the key NOPE; no row has the categories a, b"; empty when nothing is unknown.
    static QString describe(const Names &unknown);
};
