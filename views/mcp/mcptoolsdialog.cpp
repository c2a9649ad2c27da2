#include "views/mcp/mcptoolsdialog.h"

#include "models/mcptoollistmodel.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonDocument>
#include <QLabel>
#include <QLocale>
#include <QPlainTextEdit>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

McpToolsDialog::McpToolsDialog(std::shared_ptr<const DirectoryStore> store, QWidget *parent)
    : QDialog(parent), m_store(std::move(store)), m_model(new McpToolListModel(this)),
      m_sorted(new QSortFilterProxyModel(this)), m_projection(new QComboBox(this)),
      m_summary(new QLabel(this)), m_table(new QTableView(this)), m_preview(new QPlainTextEdit(this))
{
    setWindowTitle(tr("MCP Tools"));
    setObjectName(QStringLiteral("mcpToolsDialog"));
    m_projection->setObjectName(QStringLiteral("mcpProjection"));
    m_projection->addItem(tr("Rows: one tool per row"), int(McpOptions::Projection::Rows));
    m_projection->addItem(tr("Contract: directory_search, directory_contract, dispatch"),
                          int(McpOptions::Projection::Contract));
    m_summary->setObjectName(QStringLiteral("mcpSummary"));
    m_summary->setWordWrap(true);
    m_sorted->setSourceModel(m_model);
    m_sorted->setSortRole(McpToolListModel::SortRole);
    m_table->setObjectName(QStringLiteral("mcpTools"));
    m_table->setModel(m_sorted);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(McpToolListModel::BytesColumn, Qt::DescendingOrder);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setSectionResizeMode(McpToolListModel::NameColumn, QHeaderView::Stretch);
    m_preview->setObjectName(QStringLiteral("mcpToolJson"));
    m_preview->setReadOnly(true);
    m_preview->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    auto *served =
        new QLabel(tr("capdeskctl mcp --db FILE --tools rows|contract (stdio) and capdeskctl serve "
                      "--mcp-tools rows|contract (/mcp) hand a client exactly this list for the "
                      "projection chosen (rows by default); tokens are estimated at ~4 bytes each."),
                   this);
    served->setWordWrap(true);

    auto *top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Projection:"), this));
    top->addWidget(m_projection, 1);
    auto *split = new QSplitter(Qt::Horizontal, this);
    split->setChildrenCollapsible(false);
    split->addWidget(m_table);
    split->addWidget(m_preview);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(m_summary);
    layout->addWidget(split, 1);
    layout->addWidget(served);
    layout->addWidget(buttons);
    resize(900, 560);

    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_projection, &QComboBox::currentIndexChanged, this, &McpToolsDialog::reload);
    connect(m_model, &McpToolListModel::loaded, this, &McpToolsDialog::showSummary);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &McpToolsDialog::showSelected);
    reload();
}

QString McpToolsDialog::summaryText() const
{
    return m_summary->text();
}

QString McpToolsDialog::previewText() const
{
    return m_preview->toPlainText();
}

void McpToolsDialog::reload()
{
    m_summary->setText(tr("Building the list…"));
    m_preview->clear();
    m_model->load(m_store, McpOptions::Projection(m_projection->currentData().toInt()));
}

void McpToolsDialog::showSummary(const QString &error)
{
    if (!error.isEmpty()) {
        m_summary->setText(tr("The directory could not be read: %1").arg(error));
        return;
    }
    const McpCost &cost = m_model->cost();
    const QLocale locale;
    m_summary->setText(tr("%1 tools · %2 bytes · ~%3 tokens in the whole tools/list")
                           .arg(locale.toString(cost.tools.size()), locale.toString(cost.bytes),
                                locale.toString(cost.tokens)));
    if (m_sorted->rowCount() > 0)
        m_table->selectRow(0);
}

void McpToolsDialog::showSelected()
{
    const QModelIndex current = m_sorted->mapToSource(m_table->currentIndex());
    const QJsonObject tool = m_model->toolAt(current.row());
    m_preview->setPlainText(
        tool.isEmpty() ? QString() : QString::fromUtf8(QJsonDocument(tool).toJson(QJsonDocument::Indented)));
}
