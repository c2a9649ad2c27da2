#pragma once

#include <QString>

#include <functional>

namespace KeychainPasswords {

// Reads a database password from the OS keychain (service "capdesk"), blocking: for the
// CLI, a server's startup, and the GUI's open, which runs off the GUI thread. Empty when
// the entry is missing or no keychain answers, and libpq then looks in PGPASSFILE/.pgpass.
std::function<QString(const QString &entryName)> lookup();

} // namespace KeychainPasswords
