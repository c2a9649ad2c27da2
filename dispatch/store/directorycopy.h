#pragma once

#include "dispatch/core/storeerror.h"

#include <QList>
#include <QString>

class SqlDirectoryStore;

// Moves a whole directory between databases (`capdeskctl migrate`): rows, tokens, signing
// keys, receipts, their chains and the event log, each row copied with every column as it
// is, so seqs, hashes and signatures still verify. The copy is one write transaction on
// the destination, which must be empty, taken while the source's write lock is held so no
// write slips in between; then each table is read back from both sides and compared by
// digest. Either every table matches and the copy commits, or none of it does (opening an
// empty destination has still given it the schema).
class DirectoryCopy final
{
public:
    struct Table
    {
        QString name;
        qint64 rows = 0;
        // SHA-256 over the table's rows in key order, each column named, as read back.
        QString digest;
    };

    static StoreResult<QList<Table>> copy(SqlDirectoryStore &from, SqlDirectoryStore &to);
};
