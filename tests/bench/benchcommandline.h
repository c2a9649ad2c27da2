#pragma once

#include <QStringList>

#include <cstdio>
#include <optional>

// What a benchmark's command line may hold: the options it names (`valued` take the word
// after them, `flags` stand alone) and at most `maxOperands` other words. Read before any
// work, so a mistyped option is never taken for a database path (which the benchmark would
// create) or a row count, and --help answers without running anything.
class BenchCommandLine final
{
public:
    // The exit code to end with (0 after --help, 2 for a line the benchmark does not take),
    // or nothing when the line is fine. `usage` is the benchmark's usage line.
    static std::optional<int> check(const QStringList &arguments, const char *usage, int maxOperands,
                                    const QStringList &valued = {}, const QStringList &flags = {})
    {
        const std::optional<QString> problem = problemOf(arguments, maxOperands, valued, flags);
        if (!problem)
            return std::nullopt;
        if (problem->isEmpty()) {
            std::printf("usage: %s\n", usage);
            return 0;
        }
        std::fprintf(stderr, "%s\nusage: %s\n", qUtf8Printable(*problem), usage);
        return 2;
    }

    // The ROWS operand (the line's only word once check() passed it), `fallback` without
    // one; nothing, after saying why, where it is not a whole number from 1 to 10,000,000.
    static std::optional<int> rows(const QStringList &arguments, int fallback)
    {
        if (arguments.size() < 2)
            return fallback;
        bool number = false;
        const int rows = arguments.at(1).toInt(&number);
        if (number && rows >= 1 && rows <= 10000000)
            return rows;
        std::fprintf(stderr, "ROWS is a whole number from 1 to 10000000, not '%s'\n",
                     qUtf8Printable(arguments.at(1)));
        return std::nullopt;
    }

private:
    // Empty for --help, a message for a line the benchmark does not take.
    static std::optional<QString> problemOf(const QStringList &arguments, int maxOperands,
                                            const QStringList &valued, const QStringList &flags)
    {
        int operands = 0;
        for (qsizetype at = 1; at < arguments.size(); ++at) {
            const QString &word = arguments.at(at);
            if (word == QLatin1String("--help") || word == QLatin1String("-h"))
                return QString();
            if (valued.contains(word)) {
                if (++at == arguments.size())
                    return QStringLiteral("%1 needs a value").arg(word);
            } else if (word.startsWith(u'-') && !flags.contains(word)) {
                return QStringLiteral("unknown option %1").arg(word);
            } else if (!word.startsWith(u'-') && ++operands > maxOperands) {
                return QStringLiteral("'%1' is one argument too many").arg(word);
            }
        }
        return std::nullopt;
    }
};
