#pragma once

#include "dispatch/row/rowsummary.h"

#include <QByteArray>
#include <QList>
#include <QStringList>

// What changed in a directory since a cursor the caller got from an earlier poll.
struct DirectoryChanges
{
    QByteArray cursor; // opaque; hand it to the next changesSince()
    bool unchanged = false; // nothing changed since the cursor (no rows below)
    bool complete = false; // `changed` holds EVERY row: keys not in it are gone
    QList<RowSummary> changed; // created or changed rows (all rows when complete)
    QStringList removed; // deleted keys (only when !complete)
};
