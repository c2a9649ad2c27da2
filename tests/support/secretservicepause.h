#pragma once

#include <QString>

// Freezes the session's Secret Service (the gnome-keyring daemon that owns
// org.freedesktop.secrets) with SIGSTOP for a while, so every keychain operation waits the
// way it does behind an unlock prompt: the real daemon, answering late. The daemon is
// resumed by a detached shell, so it wakes up on time even if the test dies meanwhile.
// It is shared by every process on the bus: tests that pause it run serially.
class SecretServicePause final
{
public:
    // Stops the daemon for `ms` milliseconds and returns once it is stopped; false (and why)
    // when there is no Secret Service to stop or it did not stop.
    bool pauseFor(int ms, QString *why);
    bool isPaused() const;
    // Waits until the daemon runs again; false when it did not within `timeoutMs`.
    bool waitUntilResumed(int timeoutMs) const;

private:
    qint64 m_pid = 0;
};
