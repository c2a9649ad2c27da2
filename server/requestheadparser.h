#pragma once

#include "server/requesthead.h"

#include <QByteArray>
#include <QByteArrayView>

#include <utility>

// The strict HTTP/1.1 request-head parser in front of Qt's (RFC 9112): bytes in, a verdict
// out, no sockets, so it can be fuzzed (tests/fuzz/fuzz_requesthead.cpp). Qt 6.4 takes the
// first of two Content-Lengths and reads any Transfer-Encoding containing "chunked" as
// chunked; this parser refuses both, and what Qt parses afterwards is canonical() of an
// accepted head, never the client's bytes. Refused: lines not ended by CRLF, a bare CR or
// LF or a NUL (as soon as one arrives, before the head ends), obsolete line folding,
// whitespace before a colon, control characters, a method or target outside their
// grammar, a version other than 1.0 or 1.1, more than one Content-Length (even equal ones)
// or Host or key header, any Transfer-Encoding, a Content-Length that is not digits or is
// over the body cap, and a head over its caps.
class RequestHeadParser final
{
public:
    struct Limits
    {
        qint64 maxHeaderBytes = 32 * 1024;
        int maxHeaderCount = 100;
        qint64 maxBodyBytes = 1024 * 1024;
    };
    enum class State { Incomplete, Complete, Refused };
    struct Verdict
    {
        State state = State::Incomplete;
        RequestHead head; // when Complete
        int status = 0; // when Refused: 400, 413, 431 or 501
        QByteArray reason; // when Refused: what was wrong, for the JSON error
    };

    // Judges the start of `bytes` (a connection's unread input, at a request's start).
    // Incomplete: the head has not ended yet and is still within its cap.
    static Verdict parse(QByteArrayView bytes, const Limits &limits);
    // The method and target of the request line as far as `bytes` (a request's start) holds
    // them, each empty unless it fits its grammar so far, the target cut at 1024 bytes:
    // what the access log can name of a head that was refused or never ended.
    static std::pair<QByteArray, QByteArray> requestLineSoFar(QByteArrayView bytes);
    // The head as Qt's parser is given it: the request line and one line per header.
    static QByteArray canonical(const RequestHead &head);
};
