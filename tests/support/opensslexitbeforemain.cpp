#include "dispatch/receipts/opensslexit.h"

// A test program's main() is QTEST_MAIN's, so what capdesk's and capdeskctl's main() do
// first is done here, before main(), in every test program: their servers and clients run
// TLS on threads that may still be ending when the program exits.
namespace {

[[maybe_unused]] const bool kOpenSslLeftToProcessExit = OpenSslExit::leaveCleanupToProcessExit();

} // namespace
