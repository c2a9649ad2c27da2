#pragma once

#include <QString>

// What the table shows: a text that must appear in key, target, category or content
// (content matches arrive from a background search), an optional type and category, and
// optionally only the rows the last lint found non-compliant (an error finding, SPEC §8).
struct DirectoryFilter
{
    QString text;
    QString type; // empty: every type
    QString category; // empty: every category
    bool anyCategory = true; // false with an empty category: rows without a category
    bool nonCompliantOnly = false;

    bool operator==(const DirectoryFilter &o) const
    {
        return text == o.text && type == o.type && category == o.category && anyCategory == o.anyCategory
               && nonCompliantOnly == o.nonCompliantOnly;
    }
    bool operator!=(const DirectoryFilter &o) const { return !(*this == o); }
};
