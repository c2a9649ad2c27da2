#pragma once

#include <QString>

// "1 row" / "12,345 rows" for messages. The app ships no English translation, so Qt's
// "%n row(s)" plural forms would reach the user verbatim; this says it properly.
namespace RowsText {

QString rows(int count);

} // namespace RowsText
