#pragma once

#include <QString>
#include <QStringView>

#include <optional>

// The byte cap on runner outputs and flow values (DispatchLimits::maxOutputBytes),
// measured in UTF-8 bytes, as the output is stored, sent and fingerprinted.
class OutputLimit final
{
public:
    static qint64 utf8Size(QStringView text);
    // Whether `units` UTF-16 code units may still fit: each is at least one UTF-8 byte, so
    // more units than the cap can never fit, and the text need not be built to know it.
    static bool mayFit(qint64 units, qint64 maxBytes) { return units <= maxBytes; }
    // "ERR: output_limit: <what> is N bytes, more than the M allowed" when `text` is over.
    static std::optional<QString> check(QStringView text, qint64 maxBytes, const QString &what);
    static QString error(const QString &what, qint64 maxBytes);
};
