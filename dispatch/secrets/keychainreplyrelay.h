#pragma once

#include "dispatch/secrets/keychainrequest.h"

#include <QObject>

// Carries one KeychainReply from whichever thread answers to a caller's context object.
// The caller connects replied() to its context with a queued connection: Qt then delivers
// on the context's thread, and drops the reply if the context is destroyed first, safely
// even while the answering thread is emitting. It belongs to no thread, so the answering
// thread may emit and delete it.
class KeychainReplyRelay final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(KeychainReplyRelay)

public:
    KeychainReplyRelay();

    // Emits replied() and deletes the relay.
    void relay(const KeychainReply &reply);

signals:
    void replied(const KeychainReply &reply);
};
