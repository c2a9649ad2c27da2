#pragma once

#include <QFileInfo>
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

    // The whole number given after the option `name` (with `name` empty: the ROWS operand,
    // the line's only word once check() passed it), `fallback` without one; nothing, after
    // saying why, where it is not a whole number from `min` to `max`.
    static std::optional<int> number(const QStringList &arguments, const QString &name, int fallback, int min,
                                     int max, const char *usage)
    {
        const qsizetype at = name.isEmpty() ? 0 : arguments.indexOf(name);
        if (at < 0 || at + 1 >= arguments.size())
            return fallback;
        bool whole = false;
        const int value = arguments.at(at + 1).toInt(&whole);
        if (whole && value >= min && value <= max)
            return value;
        std::fprintf(stderr, "%s is a whole number from %d to %d, not '%s'\nusage: %s\n",
                     name.isEmpty() ? "ROWS" : qUtf8Printable(name), min, max,
                     qUtf8Printable(arguments.at(at + 1)), usage);
        return std::nullopt;
    }

    static std::optional<int> rows(const QStringList &arguments, int fallback, const char *usage)
    {
        return number(arguments, QString(), fallback, 1, 10000000, usage);
    }

    // For a benchmark whose whole line is [ROWS]: the row count to run with, or nothing
    // with `exitCode` set to end with (0 after --help, 2 for a line it does not take).
    static std::optional<int> rowsOnly(const QStringList &arguments, int fallback, const char *usage,
                                       int &exitCode)
    {
        if (const std::optional<int> exit = check(arguments, usage, 1)) {
            exitCode = *exit;
            return std::nullopt;
        }
        exitCode = 2;
        return rows(arguments, fallback, usage);
    }

    // A directory named on the line must be there: SQLite would make an empty file, which
    // the benchmark would then time. A postgresql:// URL is left to its server to answer.
    static bool directoryExists(const QString &path)
    {
        if (path.startsWith(QLatin1String("postgresql://")) || QFileInfo(path).isFile())
            return true;
        std::fprintf(stderr, "no directory at %s (give an existing FILE.db or a postgresql:// URL)\n",
                     qUtf8Printable(path));
        return false;
    }

private:
    // Empty for --help, a message for a line the benchmark does not take.
    static std::optional<QString> problemOf(const QStringList &arguments, int maxOperands,
                                            const QStringList &valued, const QStringList &flags)
    {
        int operands = 0;
        for (qsizetype at = 1; at < arguments.size(); ++at) {
            const QString &word = arguments.at(at);
            if (isHelp(word))
                return QString();
            if (valued.contains(word)) {
                // The next word is the value unless it is an option itself (a negative
                // number is a value, out of range or not).
                if (++at == arguments.size() || isHelp(arguments.at(at))
                    || arguments.at(at).startsWith(u"--"))
                    return QStringLiteral("%1 needs a value").arg(word);
            } else if (isOption(word) && !flags.contains(word)) {
                return QStringLiteral("unknown option %1").arg(word);
            } else if (!isOption(word) && ++operands > maxOperands) {
                return QStringLiteral("'%1' is one argument too many").arg(word);
            }
        }
        return std::nullopt;
    }

    static bool isHelp(const QString &word)
    {
        return word == QLatin1String("--help") || word == QLatin1String("-h");
    }

    // A word with a dash that is not a number: -5 is a ROWS operand (refused by its range).
    static bool isOption(const QString &word)
    {
        bool number = false;
        word.toLongLong(&number);
        return word.startsWith(u'-') && !number;
    }
};
