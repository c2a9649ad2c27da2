#pragma once

#include <QtGlobal>

// The bounds a SQL dump is read within (SqlDumpReader), so a hostile dump costs at most a
// known amount of memory and work. A real dump is far inside every one of them: a row's
// largest field is 512 KiB (RowValidator), and D1 and sqlite3 write one row per INSERT.
namespace SqlDumpLimits {

// One statement, as read from the file (SQLITE_LIMIT_SQL_LENGTH too).
constexpr int maxStatementBytes = 16 * 1024 * 1024;
// One string or blob value (SQLITE_LIMIT_LENGTH).
constexpr int maxValueBytes = 4 * 1024 * 1024;
// Rows of the directory table one dump may hold.
constexpr int maxRows = 1000000;
// Columns a table of the dump may have (SQLITE_LIMIT_COLUMN).
constexpr int maxColumns = 100;
// Nesting of an expression (SQLITE_LIMIT_EXPR_DEPTH): replace(replace(…)) is 2 deep.
constexpr int maxExpressionDepth = 32;
// Arguments of replace() and char() (SQLITE_LIMIT_FUNCTION_ARG).
constexpr int maxFunctionArguments = 32;
// Virtual machine steps between two progress checks, and checks one statement may take.
constexpr int progressInterval = 1000;
constexpr int maxProgressCalls = 50000;

} // namespace SqlDumpLimits
