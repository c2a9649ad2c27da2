#include "views/table/rowrevealer.h"

#include "views/table/categorypanel.h"
#include "views/table/directorytableview.h"
#include "views/table/filterbar.h"

RowRevealer::Outcome RowRevealer::reveal(const QString &key)
{
    if (m_table->selectKey(key))
        return Outcome::Shown;
    // A row the directory does not have (a receipt's deleted row) leaves the filters be.
    if (!m_table->holdsKey(key) || (!m_filters->isFiltering() && !m_categories->isFiltering()))
        return Outcome::NotInTable;
    m_filters->reset();
    m_categories->showAll();
    return m_table->selectKey(key) ? Outcome::FiltersCleared : Outcome::NotInTable;
}
