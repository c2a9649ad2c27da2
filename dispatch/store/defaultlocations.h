#pragma once

#include <QString>

namespace DefaultLocations {

// The embedded default directory both the GUI and capdeskctl open when given no --db:
// $XDG_DATA_HOME/capdesk/directory.db (~/.local/share/capdesk/directory.db).
QString directoryFile();
// Where the private half of a directory's receipt-signing key lives when no keychain
// holds it: beside a directory file (`<file>.signing-key`); for a PostgreSQL directory,
// $XDG_DATA_HOME/capdesk/signing-keys/<hash of its URL>.pem, since a database has no
// folder of its own on this machine.
QString signingKeyFile(const QString &directoryLocation);

} // namespace DefaultLocations
