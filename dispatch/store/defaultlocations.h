#pragma once

#include <QString>

namespace DefaultLocations {

// The embedded default directory both the GUI and capdeskctl open when given no --db:
// $XDG_DATA_HOME/capdesk/directory.db (~/.local/share/capdesk/directory.db).
QString directoryFile();

} // namespace DefaultLocations
