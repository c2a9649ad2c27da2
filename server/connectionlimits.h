#pragma once

#include <QtGlobal>

// What one client may cost `capdeskctl serve`, plain or TLS alike (`capdeskctl serve`
// options; README's server section lists them). Behind the recommended TLS proxy every
// client has the proxy's address, so the global cap and the per-connection limits are what
// hold; the per-address cap is off unless asked for.
struct ConnectionLimits
{
    // The request line and headers; more is 431 before any of it is parsed further.
    qint64 maxHeaderBytes = 32 * 1024;
    int maxHeaderCount = 100;
    // A larger Content-Length is refused with 413 on the headers; a row is kilobytes.
    qint64 maxBodyBytes = 1024 * 1024;
    // From a request's first byte to its last (headers and body): a trickling sender is
    // answered 408 and closed at this deadline however steadily it trickles.
    int requestTimeoutMs = 30000;
    // A connection that moves no byte either way for this long is closed: silent between
    // requests, or not reading its answer. Not counted while an answer is being computed.
    int idleTimeoutMs = 30000;
    // Open connections at once; one more is answered 503 and closed.
    int maxConnections = 256;
    // Open connections from one address; 0: no such cap.
    int maxConnectionsPerAddress = 0;
    // Answers written but not yet taken by the client: past this the connection reads no
    // further request until the client catches up (and the idle timeout ends one that never
    // does), so pipelining cannot queue answers without bound.
    qint64 maxUnsentBytes = 4 * 1024 * 1024;
};
