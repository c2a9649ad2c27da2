#pragma once

#include "row.h"

#include <QJsonObject>
#include <QList>
#include <QString>

struct FieldProblem
{
    QString field;
    QString message;
};

// The structural checks every write passes before the hygiene gate exists: key form,
// type, and JSON-valued fields that parse with the right shape. Views show these live;
// stores refuse writes that fail them.
class RowValidator final
{
public:
    static QList<FieldProblem> check(const Row &row);
    // Only the fields a patch names, so a patch of an old row is judged on what it changes.
    static QList<FieldProblem> checkFields(const Row &row, const QStringList &fields);

    static bool isValidKey(const QString &key);
    static QString describe(const QList<FieldProblem> &problems);
};
