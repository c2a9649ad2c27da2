#pragma once

#include "dispatch/lint/rules/lintfinding.h"

#include <QByteArray>
#include <QList>

// A lint report as a file an owner's CI or spreadsheet reads: JSON in the shape
// `capdeskctl lint` prints (SPEC §11), or CSV with the same six columns.
class LintReport final
{
public:
    static QByteArray toJson(const QList<LintFinding> &findings);
    static QByteArray toCsv(const QList<LintFinding> &findings);
};
