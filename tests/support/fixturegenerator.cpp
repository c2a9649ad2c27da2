#include "tests/support/fixturegenerator.h"

#include <QProcess>

namespace {

QString run(const QStringList &arguments)
{
    QProcess process;
    process.start(QStringLiteral("python3"), QStringList{QStringLiteral(CAPDESK_GENERATOR)} + arguments);
    if (!process.waitForFinished(120000))
        return QStringLiteral("gen_directory.py did not finish: ") + process.errorString();
    if (process.exitCode() != 0)
        return QString::fromUtf8(process.readAllStandardError());
    return {};
}

} // namespace

namespace FixtureGenerator {

QString makeDatabase(const QString &path, int rows, int seed)
{
    return run({QStringLiteral("--rows"), QString::number(rows), QStringLiteral("--seed"),
                QString::number(seed), QStringLiteral("--out"), path});
}

QString makeSqlDump(const QString &path, int rows, int seed)
{
    return run({QStringLiteral("--rows"), QString::number(rows), QStringLiteral("--seed"),
                QString::number(seed), QStringLiteral("--sql"), path});
}

} // namespace FixtureGenerator
