#pragma once

#include <QString>

// Production-shaped directories from tests/data/gen_directory.py (a copy of the shared
// fixture generator), so tests run against what owners actually export.
namespace FixtureGenerator {

// Writes a SQLite file with the production DDL; returns an error message or "".
QString makeDatabase(const QString &path, int rows, int seed = 1);
// Writes a SQL text dump; returns an error message or "".
QString makeSqlDump(const QString &path, int rows, int seed = 1);

} // namespace FixtureGenerator
