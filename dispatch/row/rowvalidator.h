#pragma once

#include "dispatch/row/row.h"

#include <QJsonArray>
#include <QList>
#include <QString>
#include <QStringList>

// One broken rule, named the way hygiene findings are: a stable code and a name
// (H001 key_format, or one of the validity rules V001–V005 that no legacy row may break).
struct FieldProblem
{
    QString field;
    QString code;
    QString name;
    QString message;
};

// The structural checks every write passes before the hygiene gate: key form, type, runner,
// field sizes, and JSON-valued fields that parse with the right shape. Views show these
// live; stores refuse writes that fail them. Every problem carries its rule's code, so a
// refusal names the rule on the CLI, over REST and in the GUI alike.
//
// Validity rules (never waived, not even for a legacy import):
//   V001 type_known       type is one of fn, http, agent, flow
//   V002 runner_known     runner is empty or one of edge, worker
//   V003 timestamp_form   updated_at / created_at are ISO-8601 UTC as the store writes them
//                         (2026-07-26T04:36:19.832Z), a real date and time; created_at may be NULL
//   V004 field_size       no field is longer than its limit (maxBytes)
//   V005 key_text         the key is not empty and holds no space or control character
class RowValidator final
{
public:
    // Everything a create or a replace is refused for (H001, H050, H051 included).
    static QList<FieldProblem> check(const Row &row);
    // Only the fields a patch names, so a patch of an old row is judged on what it changes.
    static QList<FieldProblem> checkFields(const Row &row, const QStringList &fields);
    // What an import is always refused for: V001–V005. The hygiene rules are the gate's.
    static QList<FieldProblem> checkValidity(const Row &row);

    static bool isValidKey(const QString &key);
    static bool isStoreTimestamp(const QString &text);
    static const QStringList &knownRunners();
    // The longest a field may be, in UTF-8 bytes; 0 for the integer columns.
    static qsizetype maxBytes(const QString &column);

    // "H001 key_format (key): key 'x' must match …; …", the way the hygiene gate lists rules.
    static QString describe(const QList<FieldProblem> &problems);
    // The problems as findings {"key","code","name","severity","field","message"}.
    static QJsonArray toJson(const QString &key, const QList<FieldProblem> &problems);
};
