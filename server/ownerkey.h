#pragma once

#include <QByteArray>

// The server's owner key (SPEC §10's x-terminal-key). Compared in constant time so the
// time a wrong guess takes says nothing about how much of it was right.
class OwnerKey final
{
public:
    // Shorter keys are guessable over a fast loopback link; serve refuses them.
    static constexpr int kMinimumLength = 16;

    explicit OwnerKey(const QByteArray &key);

    bool matches(const QByteArray &presented) const;
    // 32 random bytes as URL-safe base64, prefixed so a leaked one is recognisable.
    static QByteArray generate();

private:
    QByteArray m_digest;
};
