#pragma once

#include "dispatch/row/row.h"

#include <QList>
#include <QString>

#include <functional>
#include <optional>

// One thing a call would do outside Capdesk, said so an owner can decide before it runs.
struct WorldEffect
{
    QString key; // the row that does it: the called row, or a step of its flow
    QString reason; // "POST https://api.mailjet.com/v3.1/send", "marked sensitive", "asks model grok-4"

    // "EMAIL_SEND: POST https://…"
    QString describe() const { return key + QStringLiteral(": ") + reason; }
    bool operator==(const WorldEffect &other) const { return key == other.key && reason == other.reason; }
};

// Which calls change the world and therefore deserve a confirmation: an http row whose
// method is not GET or HEAD, a row marked sensitive, an agent (it spends money and its
// answer is not repeatable), and a flow that reaches any of these. Reading rows is all
// it does, so it answers for an unsaved draft as well as for a stored row.
class WorldEffects final
{
public:
    using RowLookup = std::function<std::optional<Row>(const QString &key)>;

    // The row's own effects, without following a flow's steps.
    static QList<WorldEffect> ofRow(const Row &row);
    // The row's effects and, for a flow, those of every row its steps reach, each row
    // once, nested flows followed up to `maxDepth` levels (SPEC §4's depth limit). Steps
    // naming no row are skipped: the call would fail before doing anything.
    static QList<WorldEffect> of(const Row &row, const RowLookup &lookup, int maxDepth = 8);
};
