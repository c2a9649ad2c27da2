#include "views/table/categorypanel.h"

#include "models/categorycountmodel.h"
#include "models/directorydocument.h"
#include "models/directorytablemodel.h"

#include <QLabel>
#include <QListView>
#include <QScopedValueRollback>
#include <QVBoxLayout>

CategoryPanel::CategoryPanel(QWidget *parent) : QWidget(parent), m_list(new QListView(this))
{
    m_list->setObjectName(QStringLiteral("categories"));
    m_list->setSelectionMode(QAbstractItemView::SingleSelection);
    m_list->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_list->setUniformItemSizes(true);

    auto *title = new QLabel(tr("Categories"), this);
    QFont bold = title->font();
    bold.setBold(true);
    title->setFont(bold);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(title);
    layout->addWidget(m_list);
}

void CategoryPanel::setDocument(DirectoryDocument *document)
{
    QItemSelectionModel *oldSelection = m_list->selectionModel();
    m_document = document;
    m_list->setModel(m_document ? m_document->categoryModel() : nullptr);
    delete oldSelection;
    m_anyCategory = true;
    m_category.clear();
    if (!m_document)
        return;

    CategoryCountModel *model = m_document->categoryModel();
    connect(m_list->selectionModel(), &QItemSelectionModel::currentChanged, this,
            &CategoryPanel::applySelection);
    connect(model, &QAbstractItemModel::modelReset, this, &CategoryPanel::restoreSelection,
            Qt::UniqueConnection);
    restoreSelection();
    applySelection();
}

void CategoryPanel::showAll()
{
    if (m_anyCategory || !m_document)
        return;
    m_anyCategory = true;
    m_category.clear();
    restoreSelection();
    applySelection();
}

void CategoryPanel::applySelection()
{
    if (m_restoring || !m_document)
        return;
    const QModelIndex current = m_list->currentIndex();
    m_anyCategory = !current.isValid() || current.data(CategoryCountModel::IsAllRole).toBool();
    m_category = m_anyCategory ? QString() : current.data(CategoryCountModel::CategoryRole).toString();

    DirectoryTableModel *table = m_document->tableModel();
    DirectoryFilter filter = table->filter();
    filter.anyCategory = m_anyCategory;
    filter.category = m_category;
    table->setFilter(filter);
}

void CategoryPanel::restoreSelection()
{
    // Recounting resets the model; find the chosen entry again by what it stands for.
    CategoryCountModel *model = m_document->categoryModel();
    QModelIndex chosen;
    for (int row = 0; row < model->rowCount() && !m_anyCategory && !chosen.isValid(); ++row) {
        const QModelIndex index = model->index(row, 0);
        if (!index.data(CategoryCountModel::IsAllRole).toBool()
            && index.data(CategoryCountModel::CategoryRole).toString() == m_category)
            chosen = index;
    }
    const bool found = m_anyCategory || chosen.isValid();
    {
        const QScopedValueRollback guard(m_restoring, true);
        m_list->selectionModel()->setCurrentIndex(found && chosen.isValid() ? chosen : model->index(0, 0),
                                                  QItemSelectionModel::ClearAndSelect);
    }
    // The chosen category has no rows left: the list shows "All categories", so must the table.
    if (!found)
        applySelection();
}
