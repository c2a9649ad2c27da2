#pragma once

#include <QMetaObject>
#include <QMutex>
#include <QMutexLocker>
#include <QObject>

#include <utility>

// Where work done off the GUI thread sends its answer back, often with the last reference
// to a server store, so that the connection is released on the GUI thread.
//
// Not the application object itself: answers still queued when the application ends are
// destroyed while Qt holds its posted-event lock, and an answer that releases a store there
// destroys a QObject, which waits for that same lock: the process hangs on exit. This inbox
// is a child of the application, so its queued answers are dropped before that, outside
// the lock. Once it is gone, post() refuses and the caller drops the answer on its own thread.
class GuiThreadInbox final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(GuiThreadInbox)

public:
    // Runs `answer` from the GUI thread's event loop. False when the application has no
    // inbox (not started yet, or ending); `answer` is then destroyed by the caller.
    template<typename Answer>
    static bool post(Answer &&answer)
    {
        const QMutexLocker lock(&s_mutex);
        return s_inbox
               && QMetaObject::invokeMethod(s_inbox, std::forward<Answer>(answer), Qt::QueuedConnection);
    }

    // The application's startup hook makes the one inbox; it dies with the application.
    static void createFor(QObject *application);

private:
    explicit GuiThreadInbox(QObject *application);
    ~GuiThreadInbox() override;

    static QMutex s_mutex;
    static GuiThreadInbox *s_inbox;
};
