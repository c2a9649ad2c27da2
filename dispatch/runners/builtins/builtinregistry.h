#pragma once

#include "dispatch/runners/builtins/builtincall.h"

#include <QHash>
#include <QString>
#include <QStringList>

#include <functional>

// A builtin returns its output; a failure is an output starting with "ERR:", never an
// exception. Builtins may run on any thread, so they must not touch shared mutable state.
using BuiltinFunction = std::function<QString(const BuiltinCall &)>;

// The fn runner's table of builtins by name (SPEC §3). The hygiene rule H022 and the GUI
// list the same table, so a builtin added to it is known everywhere at once.
class BuiltinRegistry final
{
public:
    // Whether a builtin can keep a thread waiting. Instant builtins run where the call is
    // made, saving the hop to a worker; waiting ones (sleep_ms) always run on a worker.
    enum class Timing { Instant, Waits };

    // A later add() of the same name replaces the earlier one.
    void add(const QString &name, BuiltinFunction fn, const QString &summary,
             Timing timing = Timing::Instant);

    // Null when there is no builtin of that name. The pointer stays valid until the next add().
    const BuiltinFunction *find(const QString &name) const;
    // Sorted, so every listing of the table reads the same.
    QStringList names() const;
    // One line for the editor and the contract document; empty for an unknown name.
    QString summary(const QString &name) const;
    Timing timing(const QString &name) const;

    // Every builtin the engine ships, built once and never changed afterwards, so it can be
    // shared between threads without locking.
    static const BuiltinRegistry &standard();

private:
    struct Entry
    {
        BuiltinFunction fn;
        QString summary;
        Timing timing = Timing::Instant;
    };

    QHash<QString, Entry> m_entries;
};
