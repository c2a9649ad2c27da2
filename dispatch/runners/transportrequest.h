#pragma once

#include <QByteArray>
#include <QList>
#include <QString>
#include <QUrl>

#include <atomic>
#include <memory>
#include <utility>

// One request as HttpTransport sends it. Everything its users do differently is set here,
// per request: the runners follow same-origin redirects and cut an oversized body, the
// remote connection follows none and refuses one.
struct TransportRequest
{
    enum class Redirects {
        None, // a 3xx is the answer
        SameOrigin, // followed within scheme, host and port; a cross-origin 3xx is the answer
    };
    // What a body over maxBodyBytes does: Truncate keeps the first maxBodyBytes and flags
    // them; Fail ends the request with TransportResponse::Failure::BodyTooLarge, for answers
    // that would be misread when cut short.
    enum class OverLimit { Truncate, Fail };

    QByteArray method = QByteArrayLiteral("GET");
    QUrl url;
    // Credentials included: they go to this request's origin only and are never logged.
    QList<std::pair<QByteArray, QByteArray>> headers = {};
    QByteArray body = {};
    bool hasBody = false; // false: no body and no Content-Length at all
    int timeoutMs = 30000; // the whole exchange, from sending it to its last byte
    qint64 maxBodyBytes = 8 * 1024 * 1024;
    OverLimit overLimit = OverLimit::Truncate;
    Redirects redirects = Redirects::SameOrigin;
    // A PEM file of CA certificates trusted beside the system roots; empty: the roots only.
    QString caFile = {};
    // Set from any thread to abort the request (Failure::Cancelled); may be null.
    std::shared_ptr<std::atomic_bool> cancelled = {};
};
