#pragma once

#include "dispatch/secrets/secretsource.h"

// The one secret a call's row names, looked up (without blocking) before its runner
// starts, so the runner's lookup() answers at once on the dispatcher's thread. Any other
// name is Missing: a runner only ever asks for the row's own secret.
class ResolvedSecret final : public SecretSource
{
public:
    ResolvedSecret(QString name, Lookup found);

    Lookup lookup(const QString &name) const override;

private:
    QString m_name;
    Lookup m_found;
};
