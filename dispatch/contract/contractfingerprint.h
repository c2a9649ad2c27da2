#pragma once

#include <QJsonObject>
#include <QString>

struct Row;

// The contract fingerprint of SPEC §6: a row keeps no version number, so a receipt (and a
// capability token pinned to a contract) records this hash to show whether the callable
// contract changed between two invocations.
//
// It covers exactly key, type, runner, category, target, description, payload,
// input_schema, auth, includes, allowed_categories, risk and enabled. Documentation other
// than the description, examples, seq, planner_visible, planner_rank and the timestamps
// are left out, so editing them leaves the fingerprint byte-identical.
//
// A null text column and an empty one give the same fingerprint: both are written as "".
// Production compares rows by value, and a JSON or SQL export and re-import may turn one
// into the other; a round trip through either must not look like a contract change.
class ContractFingerprint final
{
public:
    // The hashed object. Every text field is a string (null as ""), enabled is a boolean
    // and risk is "high" for a sensitive row, else "low". input_schema is the schema's
    // canonical JSON text when the column is strict JSON (so reformatting it or reordering
    // its keys changes nothing), else the column's text unchanged.
    static QJsonObject fieldsOf(const Row &row);
    // Lowercase hex SHA-256 of CanonicalJson::serialize(fieldsOf(row)).
    static QString of(const Row &row);

private:
    static QString canonicalSchema(const QString &text);
};
