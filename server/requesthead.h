#pragma once

#include <QByteArray>
#include <QList>

#include <utility>

// A request line and headers that RequestHeadParser accepted: well-formed, within the
// caps, with at most one of each header that decides framing or authority.
struct RequestHead
{
    QByteArray method;
    QByteArray target; // origin-form: "/path?query"
    int minorVersion = 1; // HTTP/1.minorVersion
    QList<std::pair<QByteArray, QByteArray>> headers; // names lower-cased, values trimmed
    qint64 contentLength = 0;
    bool closeAfter = false; // Connection: close, or HTTP/1.0 without keep-alive
    qsizetype headBytes = 0; // how many input bytes the head took, up to the body

    // The value of header `name` (lower case), or a null array.
    QByteArray value(const QByteArray &name) const
    {
        for (const auto &[key, text] : headers) {
            if (key == name)
                return text;
        }
        return {};
    }
};
