#pragma once

#include <QString>

// The result of testing a connection, as the Connect dialog shows it.
struct ConnectionCheck
{
    bool ok = false;
    QString message; // plain words: "connected, 12 ms, owner key accepted" or why not
    qint64 latencyMs = 0;
    int rows = -1; // the directory's row count; -1 if unknown
};
