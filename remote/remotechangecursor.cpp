#include "remotechangecursor.h"

#include <algorithm>

namespace {

const QByteArray kSequenceTag = QByteArrayLiteral("seq:");
const QByteArray kListingTag = QByteArrayLiteral("list:");

bool isLowerHex(const QByteArray &text)
{
    return std::all_of(text.cbegin(), text.cend(),
                       [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

} // namespace

QByteArray RemoteChangeCursor::text() const
{
    if (kind == Kind::Sequence)
        return kSequenceTag + QByteArray::number(seq);
    // Hex, so any bytes a server put in its ETag survive as plain text.
    return kListingTag + etag.toHex();
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
        const QByteArray hex = text.mid(kListingTag.size());
        if (hex.size() % 2 != 0 || hex.size() > 2 * kMaxETagBytes || !isLowerHex(hex))
            return std::nullopt;
        return listing(QByteArray::fromHex(hex));
    }
    return std::nullopt;
}
