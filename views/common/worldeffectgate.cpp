#include "views/common/worldeffectgate.h"

#include "views/common/prompter.h"

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
