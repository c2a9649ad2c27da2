#pragma once

#include "dispatch/row/row.h"

#include <QList>
#include <QString>

// The contract document of SPEC §9: one self-contained Markdown page per row for a reader
// (or a model) that knows nothing else, kept near-constant in size so the registry's cost
// in a model's context is predictable.
class ContractDocument final
{
public:
    static QString render(const Row &row);
    // An estimate, not a tokenizer: ~4 UTF-8 bytes per token, the usual rule of thumb for
    // English and code with BPE vocabularies, rounded up.
    static int estimateTokens(const QString &text);
    // UTF-8 bytes of every row's document: what exposing the whole registry costs.
    static qint64 registryBytes(const QList<Row> &rows);
};
