#pragma once

#include "builtincall.h"

#include <QHash>
#include <QString>
#include <QStringList>

#include <functional>

// A builtin returns its output; a failure is an output starting with "ERR:", never an
// exception. Builtins run on a worker thread, so they must not touch shared mutable state.
using BuiltinFunction = std::function<QString(const BuiltinCall &)>;

// The fn runner's table of builtins by name (SPEC §3). The hygiene rule H022 and the GUI
// list the same table, so a builtin added to it is known everywhere at once.
class BuiltinRegistry final
{
public:
    // A later add() of the same name replaces the earlier one.
    void add(const QString &name, BuiltinFunction fn, const QString &summary);

    // Null when there is no builtin of that name. The pointer stays valid until the next add().
    const BuiltinFunction *find(const QString &name) const;
    // Sorted, so every listing of the table reads the same.
    QStringList names() const;
    // One line for the editor and the contract document; empty for an unknown name.
    QString summary(const QString &name) const;

    // Every builtin the engine ships, built once and never changed afterwards, so it can be
    // shared between threads without locking.
    static const BuiltinRegistry &standard();

private:
    struct Entry
    {
        BuiltinFunction fn;
        QString summary;
    };

    QHash<QString, Entry> m_entries;
};
