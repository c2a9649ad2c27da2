#pragma once

#include <QString>

class CategoryPanel;
class DirectoryTableView;
class FilterBar;

// Brings a row into the table: selected where the filters let it through, else the
// filters (search, type, compliance and category) are lifted first, so a new row, the row
// an undo changed or a row reached from elsewhere is never edited out of sight.
class RowRevealer final
{
public:
    enum class Outcome { Shown, FiltersCleared, NotInTable };

    RowRevealer(FilterBar *filters, CategoryPanel *categories, DirectoryTableView *table)
        : m_filters(filters), m_categories(categories), m_table(table)
    {}

    Outcome reveal(const QString &key);

private:
    FilterBar *m_filters;
    CategoryPanel *m_categories;
    DirectoryTableView *m_table;
};
