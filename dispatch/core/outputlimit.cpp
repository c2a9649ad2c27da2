#include "dispatch/core/outputlimit.h"

using namespace Qt::StringLiterals;

qint64 OutputLimit::utf8Size(QStringView text)
{
    qint64 bytes = 0;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const char16_t unit = text[i].unicode();
        if (unit < 0x80) {
            bytes += 1;
        } else if (unit < 0x800) {
            bytes += 2;
        } else if (QChar::isHighSurrogate(unit) && i + 1 < text.size()
                   && QChar::isLowSurrogate(text[i + 1].unicode())) {
            bytes += 4;
            ++i;
        } else {
            bytes += 3; // a lone surrogate is written as U+FFFD
        }
    }
    return bytes;
}

std::optional<QString> OutputLimit::check(QStringView text, qint64 maxBytes, const QString &what)
{
    if (!mayFit(text.size(), maxBytes))
        return error(what, maxBytes);
    const qint64 bytes = utf8Size(text);
    if (bytes <= maxBytes)
        return std::nullopt;
    return error(what, maxBytes);
}

QString OutputLimit::error(const QString &what, qint64 maxBytes)
{
    return u"ERR: output_limit: %1 is more than the %2 bytes allowed"_s.arg(what).arg(maxBytes);
}
