#include "dispatch/runners/builtins/builtinregistry.h"

#include "dispatch/runners/builtins/controlbuiltins.h"
#include "dispatch/runners/builtins/cryptobuiltins.h"
#include "dispatch/runners/builtins/jsonbuiltins.h"
#include "dispatch/runners/builtins/textbuiltins.h"
#include "dispatch/runners/builtins/timebuiltins.h"

#include <algorithm>

void BuiltinRegistry::add(const QString &name, BuiltinFunction fn, const QString &summary, Timing timing)
{
    m_entries.insert(name, Entry{std::move(fn), summary, timing});
}

BuiltinRegistry::Timing BuiltinRegistry::timing(const QString &name) const
{
    return m_entries.value(name).timing;
}

const BuiltinFunction *BuiltinRegistry::find(const QString &name) const
{
    const auto it = m_entries.constFind(name);
    return it == m_entries.cend() ? nullptr : &it->fn;
}

QStringList BuiltinRegistry::names() const
{
    QStringList result = m_entries.keys();
    std::sort(result.begin(), result.end());
    return result;
}

QString BuiltinRegistry::summary(const QString &name) const
{
    return m_entries.value(name).summary;
}

const BuiltinRegistry &BuiltinRegistry::standard()
{
    // Each theme registers its own builtins beside their code, so a new builtin in an
    // existing theme touches only that theme's file.
    static const BuiltinRegistry registry = [] {
        BuiltinRegistry r;
        registerTextBuiltins(r);
        registerJsonBuiltins(r);
        registerCryptoBuiltins(r);
        registerTimeBuiltins(r);
        registerControlBuiltins(r);
        return r;
    }();
    return registry;
}
