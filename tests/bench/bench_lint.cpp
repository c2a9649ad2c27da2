#include "fixturegenerator.h"
#include "linter.h"
#include "lintrun.h"
#include "sqlitedirectorystore.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QTemporaryDir>

#include <cstdio>

// Lint-all of 100,000 generated rows through LintRun (target ≤ 1 s on 2 cores) and the
// re-lint after an edit: the row and the rows referencing it (target ≤ 5 ms).
int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("big.db"));
    const QString error = FixtureGenerator::makeDatabase(path, 100000);
    if (!error.isEmpty()) {
        std::fprintf(stderr, "%s\n", qUtf8Printable(error));
        return 1;
    }
    const QList<Row> rows = SqliteDirectoryStore::open(path).value()->allRows().value();

    QElapsedTimer timer;
    timer.start();
    DirectoryIndex index = DirectoryIndex::build(rows);
    std::printf("index build, %lld rows: %lld ms\n", qint64(rows.size()), timer.elapsed());

    LintRun run;
    qsizetype findings = 0;
    QEventLoop loop;
    QObject::connect(&run, &LintRun::finished, &loop, [&](const QHash<QString, QList<LintFinding>> &byKey) {
        for (const QList<LintFinding> &list : byKey)
            findings += list.size();
        loop.quit();
    });
    timer.restart();
    run.start(rows);
    loop.exec();
    std::printf("lint-all (LintRun, index included): %lld ms, %lld findings\n", timer.elapsed(), qint64(findings));

    QHash<QString, Row> byKey;
    for (const Row &row : rows)
        byKey.insert(row.key, row);
    // The edit: a prompt block changes; re-lint it and every row that includes it.
    Row edited = byKey.value(QStringLiteral("BLOCK_VOICE")); // included by about a thousand agents
    edited.content += QStringLiteral("\n# note: edited");
    const int rounds = 200;
    qsizetype relinted = 0;
    timer.restart();
    for (int i = 0; i < rounds; ++i) {
        index.update(edited);
        const Linter linter(index);
        linter.lint(edited);
        const QStringList referencing = index.referencing(edited.key);
        relinted = referencing.size() + 1;
        for (const QString &key : referencing)
            linter.lint(byKey.value(key));
    }
    std::printf("re-lint after an edit (%lld rows): %.3f ms\n", qint64(relinted),
                double(timer.nsecsElapsed()) / 1e6 / rounds);
    return 0;
}
