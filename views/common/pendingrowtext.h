#pragma once

#include <QString>

class DirectoryDocument;

// What a panel shows in place of a row it cannot show yet: "Loading KEY from the
// server…", or why it could not be read. Empty when the row is simply not there (or is
// held), so the panel falls back to its own empty text.
namespace PendingRowText {

QString of(const DirectoryDocument *document, const QString &key);

} // namespace PendingRowText
