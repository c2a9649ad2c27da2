#pragma once

#include <QJsonObject>
#include <QList>
#include <QString>

// One hygiene finding (SPEC §8): which rule, on which row and field, and how to fix it.
struct LintFinding
{
    QString key;
    QString code; // "H010"; stable, never renumbered
    QString name; // "doc_what"
    QString severity; // "error" | "warning"
    QString field; // the column it concerns: "content", "target", …
    QString message; // says how to fix it

    // {"key","code","name","severity","field","message"}, as SPEC §11's lint prints it.
    QJsonObject toJson() const;
    static LintFinding fromJson(const QJsonObject &object);
    bool isError() const;

    bool operator==(const LintFinding &other) const;
    bool operator!=(const LintFinding &other) const { return !(*this == other); }
};
