#include "dispatch/secrets/keychainreplyrelay.h"

KeychainReplyRelay::KeychainReplyRelay()
{
    moveToThread(nullptr);
}

void KeychainReplyRelay::relay(const KeychainReply &reply)
{
    emit replied(reply);
    delete this;
}
