#pragma once

#include "dispatch/invoke/worldeffects.h"

#include <QSet>
#include <QString>

class DirectoryDocument;
class Prompter;

// The one place that asks before a call changes the world (WorldEffects), shared by the
// invoke panel and the flow debugger so "don't ask again" for a row holds in both until
// the app closes. It is never written anywhere: a new session asks again.
class WorldEffectGate final
{
public:
    explicit WorldEffectGate(Prompter &prompter) : m_prompter(prompter) {}

    // True when the call may run: it changes nothing, the owner agreed now, or the owner
    // turned the question off for `key` earlier in this session.
    bool mayRun(const QString &key, const QList<WorldEffect> &effects);
    // The same for `row` as `document` has it, a flow's steps read from it too, drafts
    // included.
    bool mayRun(const Row &row, const DirectoryDocument &document);
    // What a panel says when the owner did not agree.
    static QString notConfirmed(const QString &key);

private:
    Prompter &m_prompter;
    QSet<QString> m_quiet;
};
