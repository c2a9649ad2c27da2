#include "dispatch/secrets/secretsource.h"

#include <QMetaObject>

void SecretSource::lookupAsync(const QString &name, QObject *context,
                               std::function<void(const Lookup &)> done) const
{
    QMetaObject::invokeMethod(
        context, [done = std::move(done), found = lookup(name)] { done(found); }, Qt::QueuedConnection);
}
