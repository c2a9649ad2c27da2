#pragma once

#include "dispatch/core/textposition.h"

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

// The plan of a flow (SPEC §4) as the parser reads it: what runs, in which order, with
// which body template. Nothing is substituted here; that happens step by step at run time.

// One call: `KEY[: body][ => NAME]`, a whole step or one branch of a fan-out.
struct FlowCall
{
    QString key;
    QString body; // as written, trimmed, `\>` read as '>'; "$PREV" without ':'
    bool bodyWritten = true; // false when the step had no ':' and takes $PREV
    QString binding; // a fan-out branch's `=> NAME`; a call step's is FlowStep::binding
    TextPosition position; // of the key, in the text that was parsed

    QJsonObject toJson() const;
};

// One step: a call, or a fan-out whose branches run concurrently.
struct FlowStep
{
    QList<FlowCall> calls; // one for a call; the branches in order for a fan-out
    bool fanOut = false;
    QString binding; // `=> NAME` binding the step's output ($PREV after it)
    TextPosition position; // of the step's first character

    QJsonObject toJson() const;
};

struct FlowPlan
{
    QList<FlowStep> steps;

    // {"steps":[…]}: what `capdeskctl flow-plan KEY` prints and shape mode starts from.
    QJsonObject toJson() const;
    int callCount() const;
    // Every key the flow names, first mention first, each once.
    QStringList keys() const;
};
