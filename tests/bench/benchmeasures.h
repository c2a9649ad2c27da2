#pragma once

#include <QElapsedTimer>
#include <QFile>

// What the benchmarks read off the clock and the kernel.
inline double msSince(const QElapsedTimer &timer)
{
    return double(timer.nsecsElapsed()) / 1e6;
}

// A process's peak resident set (VmHWM): `process` is "self" or a pid. -1 where /proc
// does not say.
inline double peakRssMiBOf(const QString &process)
{
    QFile status(QStringLiteral("/proc/%1/status").arg(process));
    if (!status.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray &line : status.readAll().split('\n')) {
        if (line.startsWith("VmHWM:"))
            return line.mid(6).trimmed().split(' ').first().toDouble() / 1024.0;
    }
    return -1;
}

inline double peakRssMiB()
{
    return peakRssMiBOf(QStringLiteral("self"));
}
