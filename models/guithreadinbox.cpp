#include "models/guithreadinbox.h"

#include <QCoreApplication>

QMutex GuiThreadInbox::s_mutex;
GuiThreadInbox *GuiThreadInbox::s_inbox = nullptr;

namespace {

void createInbox()
{
    GuiThreadInbox::createFor(QCoreApplication::instance());
}

} // namespace

// Runs when the application object is made (or at once, when it already exists), on its thread.
Q_COREAPP_STARTUP_FUNCTION(createInbox)

void GuiThreadInbox::createFor(QObject *application)
{
    new GuiThreadInbox(application);
}

GuiThreadInbox::GuiThreadInbox(QObject *application) : QObject(application)
{
    const QMutexLocker lock(&s_mutex);
    s_inbox = this;
}

GuiThreadInbox::~GuiThreadInbox()
{
    const QMutexLocker lock(&s_mutex);
    if (s_inbox == this)
        s_inbox = nullptr;
}
