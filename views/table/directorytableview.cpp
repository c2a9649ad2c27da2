#include "views/table/directorytableview.h"

#include "models/directorydocument.h"
#include "models/directorytablemodel.h"
#include "views/common/typeicons.h"

#include <QHeaderView>
#include <QStyle>

#include <algorithm>

DirectoryTableView::DirectoryTableView(QWidget *parent) : QTableView(parent)
{
    setSelectionBehavior(QAbstractItemView::SelectRows);
    setSelectionMode(QAbstractItemView::ExtendedSelection);
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    setWordWrap(false);
    setAlternatingRowColors(true);
    setShowGrid(false);
    // Keys and URLs differ at both ends; the full value is in the tooltip.
    setTextElideMode(Qt::ElideMiddle);
    setVerticalScrollMode(QAbstractItemView::ScrollPerPixel);
    setHorizontalScrollMode(QAbstractItemView::ScrollPerPixel);

    // Row heights are fixed, never measured: over 100,000 rows measuring is the cost.
    QHeaderView *rows = verticalHeader();
    rows->setSectionResizeMode(QHeaderView::Fixed);
    rows->setDefaultSectionSize(fontMetrics().height() + 8);
    rows->hide();

    QHeaderView *columns = horizontalHeader();
    columns->setSectionResizeMode(QHeaderView::Interactive);
    columns->setHighlightSections(false);
    columns->setSortIndicator(0, Qt::AscendingOrder);
    columns->setSortIndicatorShown(true);
    columns->setStretchLastSection(true);
    setIconSize(QSize(16, 16));
}

void DirectoryTableView::setDocument(DirectoryDocument *document)
{
    QItemSelectionModel *oldSelection = selectionModel();
    m_headerState = headerState();
    m_model = document ? document->tableModel() : nullptr;
    if (m_model) {
        m_model->setTypeIcons(TypeIcons::all());
        m_model->setLintIcons(style()->standardIcon(QStyle::SP_MessageBoxWarning),
                              style()->standardIcon(QStyle::SP_MessageBoxCritical));
    }
    setModel(m_model);
    // QAbstractItemView leaves the replaced selection model to its owner, which is us.
    delete oldSelection;
    if (!m_model)
        return;

    // A new model resets the header's sections; the user's widths and sort come back.
    if (m_headerState.isEmpty() || !horizontalHeader()->restoreState(m_headerState))
        setColumnWidths();
    // Sorting is enabled after the model is set, so the header's indicator sorts it once.
    setSortingEnabled(true);
    connect(selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex &current) {
                // A row hidden by the filter or removed leaves no current index; the editor keeps
                // showing what it showed, so only real rows are announced.
                if (current.isValid())
                    emit currentKeyChanged(current.data(DirectoryTableModel::KeyRole).toString());
            });
    connect(selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &DirectoryTableView::selectedRowsChanged);
    emit selectedRowsChanged();
    // Start on the first row so the editor beside the table shows something real.
    if (m_model->rowCount() > 0)
        selectKey(m_model->keyAt(0));
}

void DirectoryTableView::setColumnWidths()
{
    // Widths from the font, not from the content: measuring content walks every row.
    const QFontMetrics metrics = fontMetrics();
    auto width = [&metrics](int characters) { return metrics.averageCharWidth() * characters + 24; };
    setColumnWidth(DirectoryTableModel::KeyColumn, width(24));
    setColumnWidth(DirectoryTableModel::TypeColumn, width(6) + iconSize().width());
    setColumnWidth(DirectoryTableModel::CategoryColumn, width(12));
    setColumnWidth(DirectoryTableModel::TargetColumn, width(30));
    setColumnWidth(DirectoryTableModel::EnabledColumn, width(6));
    // The model keeps the lint column last for stable numbers; it reads best first, as an
    // icon beside the key.
    setColumnWidth(DirectoryTableModel::LintColumn, iconSize().width() + 16);
    QHeaderView *columns = horizontalHeader();
    columns->moveSection(columns->visualIndex(DirectoryTableModel::LintColumn), 0);
}

QByteArray DirectoryTableView::headerState() const
{
    return m_model ? horizontalHeader()->saveState() : m_headerState;
}

void DirectoryTableView::restoreHeaderState(const QByteArray &state)
{
    m_headerState = state;
    if (m_model && !horizontalHeader()->restoreState(state))
        setColumnWidths();
}

QString DirectoryTableView::currentKey() const
{
    const QModelIndex current = selectionModel() ? selectionModel()->currentIndex() : QModelIndex();
    return current.isValid() ? current.data(DirectoryTableModel::KeyRole).toString() : QString();
}

bool DirectoryTableView::hasSelection() const
{
    return m_model && selectionModel() && selectionModel()->hasSelection();
}

QStringList DirectoryTableView::selectedKeys() const
{
    QStringList keys;
    if (!m_model || !selectionModel())
        return keys;
    QModelIndexList rows = selectionModel()->selectedRows();
    std::sort(rows.begin(), rows.end(),
              [](const QModelIndex &a, const QModelIndex &b) { return a.row() < b.row(); });
    keys.reserve(rows.size());
    for (const QModelIndex &row : std::as_const(rows))
        keys.append(m_model->keyAt(row.row()));
    return keys;
}

bool DirectoryTableView::selectKey(const QString &key)
{
    if (!m_model)
        return false;
    const int row = m_model->rowOfKey(key);
    if (row < 0) {
        clearSelection();
        return false;
    }
    const QModelIndex index = m_model->index(row, DirectoryTableModel::KeyColumn);
    selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    scrollTo(index);
    return true;
}

void DirectoryTableView::focusRows()
{
    setFocus(Qt::OtherFocusReason);
    // Selected, not only current, so the row the editor shows is highlighted at once.
    const QString key = currentKey();
    if (!key.isEmpty())
        selectKey(key);
    else if (m_model && m_model->rowCount() > 0)
        selectKey(m_model->keyAt(0));
}

bool DirectoryTableView::holdsKey(const QString &key) const
{
    return m_model && m_model->summary(key).has_value();
}
