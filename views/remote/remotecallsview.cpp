#include "views/remote/remotecallsview.h"

#include "dispatch/call/invocation.h"
#include "models/callhistorymodel.h"
#include "remote/remoteconfirmation.h"
#include "remote/serverconnection.h"

#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>
#include <QtConcurrent>

namespace {

QString confirmationText(const StoreResult<RemoteConfirmation> &answer)
{
    if (!answer.ok())
        return RemoteCallsView::tr("could not ask: %1").arg(answer.error().message);
    const RemoteConfirmation &confirmation = answer.value();
    if (confirmation.confirmed)
        return RemoteCallsView::tr("confirmed · %1").arg(confirmation.status);
    if (!confirmation.reason.isEmpty())
        return RemoteCallsView::tr("not confirmed · %1 · %2").arg(confirmation.status, confirmation.reason);
    return RemoteCallsView::tr("not confirmed · %1").arg(confirmation.status);
}

} // namespace

RemoteCallsView::RemoteCallsView(std::shared_ptr<ServerConnection> connection, QWidget *parent)
    : QWidget(parent), m_connection(std::move(connection)), m_model(new CallHistoryModel(this)),
      m_table(new QTableView(this))
{
    auto *note =
        new QLabel(tr("The server at %1 keeps the receipts. Listed here: the calls made from this window, "
                      "each confirmed with the server (GET /api/dispatch?confirm=…, no key needed).")
                       .arg(m_connection->location()),
                   this);
    note->setObjectName(QStringLiteral("remoteCallsNote"));
    note->setWordWrap(true);
    note->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *again = new QPushButton(tr("Confirm Again"), this);
    again->setObjectName(QStringLiteral("confirmAgain"));
    connect(again, &QPushButton::clicked, this, &RemoteCallsView::confirmAll);

    m_table->setObjectName(QStringLiteral("remoteCalls"));
    m_table->setModel(m_model);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->horizontalHeader()->setSectionResizeMode(CallHistoryModel::ResultColumn, QHeaderView::Stretch);
    m_table->hideColumn(CallHistoryModel::OkColumn);
    connect(m_table, &QTableView::activated, this, [this](const QModelIndex &index) {
        if (const CallHistoryModel::Entry *entry = m_model->entryAt(index.row()))
            emit rowRequested(entry->key);
    });

    auto *top = new QHBoxLayout;
    top->addWidget(note, 1);
    top->addWidget(again, 0, Qt::AlignTop);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(top);
    layout->addWidget(m_table, 1);
}

void RemoteCallsView::record(const InvocationRequest &request, const InvocationOutcome &outcome)
{
    if (outcome.shape)
        return; // a preview is no call: nothing ran, there is nothing to confirm
    m_model->add({QDateTime::currentDateTimeUtc(), request.key, request.body, outcome.durationMs,
                  outcome.toResponse()});
    confirm(outcome.invocationId);
}

void RemoteCallsView::confirmAll()
{
    for (int row = 0; row < m_model->rowCount(); ++row)
        confirm(m_model->entryAt(row)->invocationId());
}

void RemoteCallsView::confirm(const QString &invocationId)
{
    if (invocationId.isEmpty())
        return;
    // fetch() blocks on the network: a worker waits for it, never the GUI thread.
    auto *watcher = new QFutureWatcher<QString>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, invocationId] {
        const QString text = watcher->result();
        watcher->deleteLater();
        m_model->setConfirmation(invocationId, text);
        emit confirmed(invocationId, text);
    });
    const QFuture<QString> future = QtConcurrent::run([connection = m_connection.get(), invocationId] {
        return confirmationText(RemoteConfirmation::fetch(*connection, invocationId));
    });
    m_confirms.addFuture(future);
    watcher->setFuture(future);
}
