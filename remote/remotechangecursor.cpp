#include "remote/remotechangecursor.h"

#include <QList>

#include <algorithm>

namespace {

const QByteArray kSequenceTag = QByteArrayLiteral("seq:");
const QByteArray kListingTag = QByteArrayLiteral("list:");
constexpr qsizetype kDigestBytes = 32;

bool isLowerHex(const QByteArray &text)
{
    return text.size() % 2 == 0 && std::all_of(text.cbegin(), text.cend(), [](char c) {
               return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
           });
}

} // namespace

QByteArray RemoteChangeCursor::text() const
{
    if (kind == Kind::Sequence)
        return kSequenceTag + QByteArray::number(seq);
    // Hex, so any bytes a server put in its ETag survive as plain text.
    return kListingTag + etag.toHex() + ':' + digest.toHex();
}

std::optional<RemoteChangeCursor> RemoteChangeCursor::parse(const QByteArray &text)
{
    if (text.startsWith(kSequenceTag)) {
        const QByteArray digits = text.mid(kSequenceTag.size());
        if (digits.isEmpty() || digits.size() > 19
            || !std::all_of(digits.cbegin(), digits.cend(), [](char c) { return c >= '0' && c <= '9'; }))
            return std::nullopt;
        bool ok = false;
        const qint64 seq = digits.toLongLong(&ok);
        return ok ? std::optional<RemoteChangeCursor>(sequence(seq)) : std::nullopt;
    }
    if (text.startsWith(kListingTag)) {
        const QList<QByteArray> parts = text.mid(kListingTag.size()).split(':');
        if (parts.size() != 2 || parts[0].size() > 2 * kMaxETagBytes || !isLowerHex(parts[0])
            || (!parts[1].isEmpty() && parts[1].size() != 2 * kDigestBytes) || !isLowerHex(parts[1]))
            return std::nullopt;
        return listing(QByteArray::fromHex(parts[0]), QByteArray::fromHex(parts[1]));
    }
    return std::nullopt;
}
