#pragma once

#include "dispatch/core/storeerror.h"
#include "remote/serverresponse.h"

// How a server's answer reads as a StoreError, the same words for every front end:
//  no answer → Unreachable ("server URL did not answer: connection refused", or a
//  refused certificate: "… did not answer: certificate for HOST is not trusted: …"),
//  a body over the endpoint's cap → Io ("server URL sent too much for GET /path: …"),
//  401 → Unauthorized, 404 → NotFound, 409 → AlreadyExists, 412 → Conflict,
//  400/413/422 → Invalid (422 carries the hygiene findings in details), 5xx → Io.
namespace ServerErrors {

// None for a 2xx answer.
StoreError fromResponse(const ServerResponse &response, const QString &location);
// The server's own words: the body's "error" (and "message" when it adds one).
QString messageOf(const ServerResponse &response);

} // namespace ServerErrors
