#pragma once

#include <QStringView>

// How well a typed query matches a name, the way command palettes rank: every character of
// the query must appear in the name in order (ignoring case). Runs of consecutive
// characters and characters at word starts ('_', ' ', '-', '.', '/' before them, or a
// lower-to-upper change) score more, gaps score less, a name that starts with the query
// scores most and the name that is the query more still. Greedy and linear, so 100,000
// row keys rank within a keystroke.
class FuzzyMatch final
{
public:
    static constexpr int noMatch = -1;

    // noMatch when `query` is not a subsequence of `text`; 0 for an empty query.
    static int score(QStringView query, QStringView text);
};
