#pragma once

#include "dispatch/row/row.h"

#include <QByteArray>

// A row's canonical JSON: byte for byte CanonicalJson::serialize(row.toJson()), written
// straight from the row's fields. The event log hashes a row per DIRECTORY_MUTATE event,
// and building a QJsonObject per row to serialize it tripled the time of a 100,000-row
// import; this writer follows the same rules (canonicaljson.h) without the detour.
class RowCanonicalJson final
{
public:
    static QByteArray serialize(const Row &row);
};
