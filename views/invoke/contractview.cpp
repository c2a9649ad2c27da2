#include "views/invoke/contractview.h"

#include "dispatch/contract/contractdocument.h"
#include "dispatch/contract/mcpprojection.h"
#include "dispatch/mcp/mcpcost.h"
#include "models/directorydocument.h"
#include "views/common/pendingrowtext.h"

#include <QFontDatabase>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLocale>
#include <QPlainTextEdit>
#include <QTextBrowser>
#include <QTimer>
#include <QVBoxLayout>

ContractView::ContractView(QWidget *parent)
    : QWidget(parent), m_size(new QLabel(this)), m_browser(new QTextBrowser(this)),
      m_toolSize(new QLabel(this)), m_tool(new QPlainTextEdit(this)), m_delay(new QTimer(this))
{
    m_size->setObjectName(QStringLiteral("contractSize"));
    m_size->setToolTip(tr("What this row's contract document costs a model's context; tokens are "
                          "estimated at ~4 bytes each."));
    m_browser->setObjectName(QStringLiteral("contractText"));
    m_browser->setOpenExternalLinks(true);
    m_toolSize->setObjectName(QStringLiteral("contractToolSize"));
    m_toolSize->setToolTip(tr("What an MCP client is handed for this row by capdeskctl mcp and serve's /mcp "
                              "(rows projection); tokens are estimated at ~4 bytes each."));
    m_tool->setObjectName(QStringLiteral("contractTool"));
    m_tool->setReadOnly(true);
    m_tool->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    m_tool->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_delay->setSingleShot(true);
    m_delay->setInterval(150);
    connect(m_delay, &QTimer::timeout, this, &ContractView::render);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 4, 0, 0);
    layout->addWidget(m_size);
    layout->addWidget(m_browser, 3);
    layout->addWidget(m_toolSize);
    layout->addWidget(m_tool, 1);
}

void ContractView::setDocument(DirectoryDocument *document)
{
    if (m_document)
        disconnect(m_document, nullptr, this, nullptr);
    m_document = document;
    m_key.clear();
    if (m_document) {
        connect(m_document, &DirectoryDocument::rowChanged, this, [this](const QString &key) {
            if (key == m_key)
                renderSoon();
        });
    }
    renderSoon();
}

void ContractView::showRow(const QString &key)
{
    if (key == m_key)
        return;
    m_key = key;
    m_stale = true;
    if (isVisible())
        render();
}

void ContractView::renderSoon()
{
    m_stale = true;
    if (isVisible())
        m_delay->start();
}

void ContractView::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (m_stale)
        render();
}

QString ContractView::sizeText() const
{
    return m_size->text();
}

QString ContractView::toolSizeText() const
{
    return m_toolSize->text();
}

QString ContractView::toolText() const
{
    return m_tool->toPlainText();
}

void ContractView::render()
{
    m_delay->stop();
    m_stale = false;
    const std::optional<Row> row = m_document && !m_key.isEmpty() ? m_document->row(m_key) : std::nullopt;
    m_markdown = row ? ContractDocument::render(*row) : QString();
    m_browser->setMarkdown(row ? m_markdown : PendingRowText::of(m_document, m_key));
    renderTool(row);
    if (!row) {
        m_size->clear();
        return;
    }
    const QLocale locale;
    m_size->setText(tr("%1 bytes · ~%2 tokens")
                        .arg(locale.toString(m_markdown.toUtf8().size()),
                             locale.toString(ContractDocument::estimateTokens(m_markdown))));
}

void ContractView::renderTool(const std::optional<Row> &row)
{
    if (!row) {
        m_toolSize->clear();
        m_tool->clear();
        return;
    }
    if (!McpProjection::isListed(*row)) {
        m_toolSize->setText(tr("As an MCP tool: not listed"));
        m_tool->setPlainText(row->enabled
                                 ? tr("The row is hidden from planners, so MCP clients are not offered it.")
                                 : tr("The row is disabled, so MCP clients are not offered it."));
        return;
    }
    const QJsonObject tool = McpProjection::tool(*row);
    const qint64 bytes = QJsonDocument(tool).toJson(QJsonDocument::Compact).size();
    const QLocale locale;
    m_toolSize->setText(tr("As an MCP tool: %1 bytes · ~%2 tokens")
                            .arg(locale.toString(bytes), locale.toString(McpCost::tokensFor(bytes))));
    m_tool->setPlainText(QString::fromUtf8(QJsonDocument(tool).toJson(QJsonDocument::Indented)));
}
