#pragma once

#include <QElapsedTimer>
#include <QFile>
#include <QtGlobal>

#include <cstdio>

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

// One figure for tests/bench/run_benchmarks.py, which writes the README's table from these
// lines: `figure NAME VALUE`, NAME a dotted word, VALUE in the unit its name ends with.
inline void printFigure(const char *name, double value)
{
    std::printf("figure %s %.6g\n", name, value);
}

// Before QApplication: a widget benchmark run where no display is (a shell over ssh, CI)
// paints offscreen rather than aborting in the xcb plugin.
inline void paintOffscreenWithoutDisplay()
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM") && qEnvironmentVariableIsEmpty("DISPLAY"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
}
