#include "views/common/worldeffectgate.h"

#include "models/directorydocument.h"
#include "views/common/prompter.h"

#include <QCoreApplication>

bool WorldEffectGate::mayRun(const Row &row, const DirectoryDocument &document)
{
    // A step row the document has but has not read yet (a server's, still on its way) is
    // unknown, not harmless: the owner is asked about it too. Asking for it starts its read.
    QStringList unread;
    QList<WorldEffect> effects = WorldEffects::of(row, [&document, &unread](const QString &key) {
        std::optional<Row> found = document.row(key);
        if (!found && document.contains(key) && !unread.contains(key))
            unread.append(key);
        return found;
    });
    for (const QString &key : std::as_const(unread))
        effects.append(
            {key, QCoreApplication::translate("WorldEffectGate",
                                              "not read from the server yet, so what it does is unknown")});
    return mayRun(row.key, effects);
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
