#pragma once

// OpenSSL's atexit handler frees the state of every thread that used it, and assumes
// those threads are gone. A QThread is detached: wait() returns before the thread has run
// its own destructors, and one of those frees the same state again when the process exits
// at that moment. That was a double free in `capdeskctl invoke` over HTTPS, once in about
// a thousand runs under load. Called first in main(), before anything starts OpenSSL, this
// leaves OpenSSL's memory to the end of the process instead, as every other library's is.
namespace OpenSslExit {

// False when OpenSSL refused to initialise. It must come before anything starts OpenSSL:
// a cleanup registered by an earlier start cannot be taken back.
bool leaveCleanupToProcessExit();

} // namespace OpenSslExit
