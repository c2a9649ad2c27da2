#include "dispatch/secrets/memorysecrets.h"

MemorySecrets::~MemorySecrets()
{
    for (QString &value : m_values)
        wipe(value);
}

SecretSource::Lookup MemorySecrets::lookup(const QString &name) const
{
    const QReadLocker lock(&m_lock);
    const auto found = m_values.constFind(name);
    if (found == m_values.constEnd())
        return {};
    return {Origin::Memory, ownCopy(*found)};
}

void MemorySecrets::set(const QString &name, const QString &value)
{
    if (value.isEmpty()) {
        remove(name);
        return;
    }
    const QWriteLocker lock(&m_lock);
    auto existing = m_values.find(name);
    if (existing == m_values.end()) {
        m_values.insert(name, ownCopy(value));
        return;
    }
    wipe(*existing);
    *existing = ownCopy(value);
}

bool MemorySecrets::remove(const QString &name)
{
    const QWriteLocker lock(&m_lock);
    auto existing = m_values.find(name);
    if (existing == m_values.end())
        return false;
    wipe(*existing);
    m_values.erase(existing);
    return true;
}

bool MemorySecrets::has(const QString &name) const
{
    const QReadLocker lock(&m_lock);
    return m_values.contains(name);
}

bool MemorySecrets::isEmpty() const
{
    const QReadLocker lock(&m_lock);
    return m_values.isEmpty();
}

QString MemorySecrets::ownCopy(const QString &value)
{
    return QString(value.constData(), value.size());
}

void MemorySecrets::wipe(QString &value)
{
    // Only this map holds the buffer (ownCopy), so fill() writes over it instead of
    // detaching into a fresh one.
    value.fill(u'\0');
}
