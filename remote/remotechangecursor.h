#pragma once

#include <QByteArray>

#include <optional>

// Where a remote directory's change feed stands (RemoteDirectoryStore::changesSince()):
// a server's change sequence, or what identifies the listing a plain server last sent,
// its ETag (empty when it sent none) and the SHA-256 of its body. The text is what
// callers hold as an opaque cursor; it comes back to us as hostile input, so parse()
// takes only what text() writes.
struct RemoteChangeCursor
{
    enum class Kind { Sequence, Listing };
    // A longer ETag is not kept: the next poll then reads the listing unconditionally.
    static constexpr qsizetype kMaxETagBytes = 256;

    Kind kind = Kind::Listing;
    qint64 seq = 0;
    QByteArray etag;
    QByteArray digest; // 32 bytes, or empty when not known

    static RemoteChangeCursor sequence(qint64 seq) { return {Kind::Sequence, seq, {}, {}}; }
    static RemoteChangeCursor listing(QByteArray etag, QByteArray digest)
    {
        return {Kind::Listing, 0, std::move(etag), std::move(digest)};
    }

    QByteArray text() const;
    static std::optional<RemoteChangeCursor> parse(const QByteArray &text);
};
