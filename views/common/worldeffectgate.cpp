#include "views/common/worldeffectgate.h"

#include "models/directorydocument.h"
#include "views/common/prompter.h"

#include <QCoreApplication>

bool WorldEffectGate::mayRun(const Row &row, const DirectoryDocument &document)
{
    return mayRun(row.key,
                  WorldEffects::of(row, [&document](const QString &key) { return document.row(key); }));
}

QString WorldEffectGate::notConfirmed(const QString &key)
{
    return QCoreApplication::translate("WorldEffectGate", "Not run: %1 was not confirmed.").arg(key);
}

bool WorldEffectGate::mayRun(const QString &key, const QList<WorldEffect> &effects)
{
    if (effects.isEmpty() || m_quiet.contains(key))
        return true;
    QStringList lines;
    for (const WorldEffect &effect : effects)
        lines.append(effect.describe());
    bool stopAsking = false;
    if (!m_prompter.confirmWorldEffects(key, lines, &stopAsking))
        return false;
    if (stopAsking)
        m_quiet.insert(key);
    return true;
}
