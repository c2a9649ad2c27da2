#pragma once

#include <QString>

// A server fault's text (a store error, a key file that cannot be read) names paths,
// tables and what went wrong inside; a caller who is not the owner is told only that it
// happened, under an id, and the owner finds the text under the same id in the log.
class FaultNotice final
{
public:
    // Writes `detail` on stderr under a new id and returns what such a caller is told.
    static QString hide(const QString &detail);
    // Whether `text` is what hide() returned, so a text is never hidden twice.
    static bool isNotice(const QString &text);
};
