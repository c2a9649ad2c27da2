#include "dispatch/secrets/keychainstore.h"

#include "dispatch/secrets/keychainreplyrelay.h"
#include "dispatch/secrets/keychainthread.h"

#include <future>
#include <memory>

namespace {

// The name of an entry nobody writes: reading it proves the Secret Service answers.
const QString probeName = QStringLiteral("capdesk-availability-probe");

KeychainRequest readRequest(const QString &name)
{
    return {KeychainRequest::Kind::Read, name, {}};
}

KeychainRequest writeRequest(const QString &name, const QString &value)
{
    // A copy of its own, never shared with the caller's: a caller that overwrites its value
    // after handing it over then overwrites the only other copy in place.
    return {KeychainRequest::Kind::Write, name, QString(value.constData(), value.size())};
}

KeychainRequest deleteRequest(const QString &name)
{
    return {KeychainRequest::Kind::Delete, name, {}};
}

// Waits on this thread, without an event loop, for the keychain thread's answer.
KeychainReply waitFor(KeychainRequest request)
{
    auto promise = std::make_shared<std::promise<KeychainReply>>();
    std::future<KeychainReply> reply = promise->get_future();
    KeychainThread::submit(std::move(request),
                           [promise](const KeychainReply &answer) { promise->set_value(answer); });
    return reply.get();
}

// Hands the answer to `request` to `done` on `context`'s thread.
void submitFor(KeychainRequest request, QObject *context, std::function<void(const KeychainReply &)> done)
{
    auto *relay = new KeychainReplyRelay;
    QObject::connect(relay, &KeychainReplyRelay::replied, context, std::move(done), Qt::QueuedConnection);
    KeychainThread::submit(std::move(request), [relay](const KeychainReply &reply) { relay->relay(reply); });
}

QString unavailableText(const KeychainReply &reply)
{
    return QStringLiteral("no Secret Service is reachable (%1): secrets come from the environment only")
        .arg(reply.error);
}

KeychainStore::Read readOf(const KeychainReply &reply)
{
    switch (reply.status) {
    case KeychainReply::Status::Done:
        return {KeychainStore::Read::Status::Found, reply.value, {}, {}};
    case KeychainReply::Status::NotFound:
        return {KeychainStore::Read::Status::NotFound, {}, {}, {}};
    case KeychainReply::Status::Failed:
        break;
    }
    return {KeychainStore::Read::Status::Unavailable, {}, unavailableText(reply), reply.error};
}

// For set: only Done is done.
KeychainStore::Outcome writeOutcome(const KeychainReply &reply)
{
    if (reply.status == KeychainReply::Status::Done)
        return {true, {}, {}};
    return {false, unavailableText(reply), reply.error};
}

// For remove and available: an entry that is not there is an answer too.
KeychainStore::Outcome answeredOutcome(const KeychainReply &reply)
{
    if (reply.status != KeychainReply::Status::Failed)
        return {true, {}, {}};
    return {false, unavailableText(reply), reply.error};
}

bool report(const KeychainStore::Outcome &outcome, QString *why)
{
    if (why)
        *why = outcome.error;
    return outcome.ok;
}

} // namespace

KeychainStore::Read KeychainStore::read(const QString &name) const
{
    return readOf(waitFor(readRequest(name)));
}

bool KeychainStore::has(const QString &name, QString *why) const
{
    const Read entry = read(name);
    if (why)
        *why = entry.error;
    return entry.status == Read::Status::Found;
}

bool KeychainStore::set(const QString &name, const QString &value, QString *why)
{
    return report(writeOutcome(waitFor(writeRequest(name, value))), why);
}

bool KeychainStore::remove(const QString &name, QString *why)
{
    return report(answeredOutcome(waitFor(deleteRequest(name))), why);
}

bool KeychainStore::available(QString *why) const
{
    return report(answeredOutcome(waitFor(readRequest(probeName))), why);
}

void KeychainStore::readAsync(const QString &name, QObject *context,
                              std::function<void(const Read &)> done) const
{
    submitFor(readRequest(name), context,
              [done = std::move(done)](const KeychainReply &reply) { done(readOf(reply)); });
}

void KeychainStore::setAsync(const QString &name, const QString &value, QObject *context,
                             std::function<void(const Outcome &)> done)
{
    submitFor(writeRequest(name, value), context,
              [done = std::move(done)](const KeychainReply &reply) { done(writeOutcome(reply)); });
}

void KeychainStore::removeAsync(const QString &name, QObject *context,
                                std::function<void(const Outcome &)> done)
{
    submitFor(deleteRequest(name), context,
              [done = std::move(done)](const KeychainReply &reply) { done(answeredOutcome(reply)); });
}

void KeychainStore::availableAsync(QObject *context, std::function<void(const Outcome &)> done) const
{
    submitFor(readRequest(probeName), context,
              [done = std::move(done)](const KeychainReply &reply) { done(answeredOutcome(reply)); });
}
