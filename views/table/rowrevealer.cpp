#include "views/table/rowrevealer.h"

#include "views/table/categorypanel.h"
#include "views/table/directorytableview.h"
#include "views/table/filterbar.h"

RowRevealer::Outcome RowRevealer::reveal(const QString &key)
{
    if (m_table->selectKey(key))
        return Outcome::Shown;
    if (!m_filters->isFiltering() && !m_categories->isFiltering())
        return Outcome::NotInTable;
    m_filters->reset();
    m_categories->showAll();
    return m_table->selectKey(key) ? Outcome::FiltersCleared : Outcome::NotInTable;
}
