#pragma once

#include <QString>

// The result of testing a connection, as the Connect dialog shows it.
struct ConnectionCheck
{
    bool ok = false;
    QString message; // plain words: "connected, 12 ms, owner key accepted" or why not
    qint64 latencyMs = 0;
    int rows = -1; // the directory's row count; -1 if unknown
    // The server answered but refused the key: its rows can still be read (SPEC §10 keys
    // only the mutating calls).
    bool keyRefused = false;
};
