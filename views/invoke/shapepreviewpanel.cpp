#include "views/invoke/shapepreviewpanel.h"

#include "dispatch/call/dispatcher.h"
#include "dispatch/contract/curlcommand.h"
#include "dispatch/row/argumentspec.h"
#include "models/directorydocument.h"
#include "views/common/pendingrowtext.h"
#include "views/invoke/argumentformpanel.h"
#include "views/invoke/invocationwatch.h"
#include "views/invoke/shaperequestview.h"

#include <QClipboard>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QVBoxLayout>

ShapePreviewPanel::ShapePreviewPanel(Dispatcher &dispatcher, QWidget *parent)
    : QWidget(parent), m_dispatcher(dispatcher), m_form(new ArgumentFormPanel(this)),
      m_view(new ShapeRequestView),
      m_copyCurl(new QPushButton(QIcon::fromTheme(QStringLiteral("edit-copy")), tr("Copy as curl"), this))
{
    m_debounce.setSingleShot(true);
    m_debounce.setInterval(debounceMs);
    connect(&m_debounce, &QTimer::timeout, this, &ShapePreviewPanel::render);

    auto *title = new QLabel(tr("<b>Shape</b> — the request a call would send"), this);
    m_copyCurl->setObjectName(QStringLiteral("copyCurl"));
    m_copyCurl->setToolTip(tr("Copies the previewed request as a curl command. The credential is written as "
                              "$NAME, the environment variable named like the row's secret, so the command "
                              "runs where that variable is set."));
    m_copyCurl->setEnabled(false);
    connect(m_copyCurl, &QPushButton::clicked, this, &ShapePreviewPanel::copyAsCurl);
    auto *header = new QHBoxLayout;
    header->addWidget(title, 1);
    header->addWidget(m_copyCurl);

    auto *scroll = new QScrollArea(this);
    scroll->setWidget(m_view);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    // Two lines of the request at the least (a scroll area asks for four), so that a row's
    // arguments and the request fit a laptop's dock; the rest of the height goes to it.
    scroll->setMinimumHeight(2 * fontMetrics().lineSpacing());

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(header);
    layout->addWidget(m_form);
    layout->addWidget(scroll, 1);

    connect(m_form, &ArgumentFormPanel::bodyChanged, this, [this](const QString &body) {
        m_debounce.start();
        emit bodyChanged(body);
    });
}

void ShapePreviewPanel::setDocument(DirectoryDocument *document)
{
    if (m_document)
        disconnect(m_document, nullptr, this, nullptr);
    m_document = document;
    if (m_document)
        connect(m_document, &DirectoryDocument::rowChanged, this, &ShapePreviewPanel::rowEdited);
    showRow(QString());
}

void ShapePreviewPanel::showRow(const QString &key)
{
    const bool anotherRow = key != m_key;
    m_key = key;
    if (anotherRow)
        m_form->setBody(QString()); // another row's args mean nothing here
    updateSpec();
    // On a server each preview is a round trip: moving through rows builds one for the
    // row the user stops on, and until then nothing stale is shown.
    if (m_document && m_document->store().hasRoundTrips()) {
        m_response = {};
        m_copyCurl->setEnabled(false);
        const QString pending = PendingRowText::of(m_document, m_key);
        m_view->showMessage(!pending.isEmpty() ? pending
                            : m_key.isEmpty()  ? tr("Select a row to preview its request.")
                                               : tr("Building the request for %1…").arg(m_key));
        m_debounce.start();
        return;
    }
    // A new row is shown at once; only typing waits for the debounce.
    m_debounce.stop();
    render();
}

QString ShapePreviewPanel::currentBody() const
{
    return m_form->body();
}

void ShapePreviewPanel::rowEdited(const QString &key)
{
    if (key != m_key
        || (m_previewedRow && m_document->row(key) == m_previewedRow && m_form->body() == m_previewedBody))
        return;
    updateSpec();
    m_debounce.start();
}

void ShapePreviewPanel::updateSpec()
{
    const std::optional<Row> row = m_document && !m_key.isEmpty() ? m_document->row(m_key) : std::nullopt;
    m_form->setSpec(row ? ArgumentSpec::fromRow(*row) : ArgumentSpec());
    m_form->setEnabled(row.has_value());
}

void ShapePreviewPanel::render()
{
    const quint64 generation = ++m_generation;
    m_response = {};
    m_copyCurl->setEnabled(false);
    const std::optional<Row> row = m_document && !m_key.isEmpty() ? m_document->row(m_key) : std::nullopt;
    m_previewedRow = row;
    m_previewedBody = m_form->body();
    if (!row) {
        const QString pending = PendingRowText::of(m_document, m_key);
        m_view->showMessage(pending.isEmpty() ? tr("Select a row to preview its request.") : pending);
        return;
    }
    // A server builds the request a round trip away; until then the old one is not shown.
    if (m_document->store().hasRoundTrips())
        m_view->showMessage(tr("Building the request for %1…").arg(m_key));
    InvocationHandle *handle = m_dispatcher.invoke({m_key, m_form->body(), true, row});
    watchInvocation(handle, this, [this, generation](const InvocationOutcome &outcome) {
        if (generation != m_generation)
            return; // a later render is on its way
        m_response = outcome.toResponse();
        m_view->showResponse(m_response);
        m_copyCurl->setEnabled(!curlCommand().isEmpty());
    });
}

QString ShapePreviewPanel::curlCommand() const
{
    // Built from the engine's redacted shape and the row's auth (a secret's name) only, so
    // no secret can reach the clipboard.
    return CurlCommand::fromShape(m_response.value(QStringLiteral("request")).toObject(),
                                  m_previewedRow ? m_previewedRow->auth : QString());
}

void ShapePreviewPanel::copyAsCurl()
{
    const QString command = curlCommand();
    if (!command.isEmpty())
        QGuiApplication::clipboard()->setText(command);
}
