#include "dispatch/secrets/resolvedsecret.h"

ResolvedSecret::ResolvedSecret(QString name, Lookup found)
    : m_name(std::move(name)), m_found(std::move(found))
{}

SecretSource::Lookup ResolvedSecret::lookup(const QString &name) const
{
    return name == m_name ? m_found : Lookup{};
}
