#include "views/common/directorysession.h"

#include "dispatch/call/flowrunrecord.h"
#include "dispatch/call/invocationhandle.h"
#include "dispatch/secrets/memorysecrets.h"
#include "dispatch/store/postgreslocation.h"
#include "models/directorydocument.h"

#include <QFileInfo>
#include <QTimer>

DirectorySession::DirectorySession(QObject *parent)
    : QObject(parent), m_memorySecrets(std::make_shared<MemorySecrets>())
{}

DirectorySession::~DirectorySession() = default;

QString DirectorySession::location() const
{
    return m_document ? m_document->store().location() : QString();
}

QString DirectorySession::windowTitle() const
{
    if (!m_document)
        return tr("Capdesk");
    if (m_connection)
        return tr("Capdesk — %1 (%2)[*]").arg(m_name.isEmpty() ? tr("server") : m_name, location());
    if (const StoreResult<PostgresLocation> database = PostgresLocation::parse(location()); database.ok())
        return tr("Capdesk — %1 on %2 (PostgreSQL)[*]")
            .arg(database.value().databaseName(), database.value().host());
    const QString name = QFileInfo(location()).fileName();
    return tr("Capdesk — %1[*]").arg(name.isEmpty() ? location() : name);
}

StoreError DirectorySession::open(OpenDirectory directory, const QString &name,
                                  std::shared_ptr<ServerConnection> server)
{
    if (!directory.isOpen())
        return StoreError::make(StoreError::Kind::NotDirectory, tr("no directory was opened"));
    // The title, the status bar and what a call sends all follow the server; a directory
    // on one must come with it.
    if (directory.store->hasRoundTrips() != (server != nullptr))
        return StoreError::make(
            StoreError::Kind::Invalid,
            tr("%1 was opened without the server it lives on").arg(directory.store->location()));
    auto document = std::make_unique<DirectoryDocument>(directory.store);
    if (const StoreError error = document->loadProgressively(); error.isError())
        return error;
    DirectoryDocument *old = m_document;
    // Calls still running on another directory's dispatcher finish with it gone: their
    // handles are left unfinished, which the panels tolerate (they reset on
    // documentChanged). A reload keeps the dispatcher, so its calls finish as usual.
    m_directory = std::move(directory);
    m_connection = std::move(server);
    m_name = name;
    m_document = document.release();
    m_document->setParent(this);
    emit documentChanged(m_document);
    delete old;
    return StoreError::none();
}

StoreError DirectorySession::reload()
{
    if (!m_document)
        return StoreError::none();
    return open(m_directory, m_name, m_connection);
}

InvocationHandle *DirectorySession::invoke(const InvocationRequest &request)
{
    if (!m_directory.dispatcher)
        return refuse(tr("no directory is open"));
    InvocationRequest sent = request;
    sent.draft = draftToSend(sent.key, sent.draft);
    return reported(m_directory.dispatcher->invoke(sent), sent);
}

InvocationHandle *DirectorySession::recordFlowRun(const FlowRunRecord &run)
{
    if (!m_directory.dispatcher)
        return refuse(tr("no directory is open"));
    FlowRunRecord sent = run;
    sent.draft = draftToSend(sent.key, sent.draft);
    InvocationRequest recorded;
    recorded.key = run.key;
    recorded.body = run.body;
    return reported(m_directory.dispatcher->recordFlowRun(sent), recorded);
}

std::optional<Row> DirectorySession::draftToSend(const QString &key, const std::optional<Row> &draft) const
{
    // A server refuses any draft; one without edits is the stored row, so it need not go.
    if (m_connection && draft && m_document && !m_document->isRowModified(key))
        return std::nullopt;
    return draft;
}

InvocationHandle *DirectorySession::reported(InvocationHandle *handle, const InvocationRequest &request)
{
    connect(handle, &InvocationHandle::finished, this,
            [this, handle, request] { emit invocationFinished(request, handle->outcome()); });
    return handle;
}

InvocationHandle *DirectorySession::refuse(const QString &reason)
{
    auto *handle = new InvocationHandle;
    InvocationOutcome outcome;
    outcome.refusal = reason;
    QTimer::singleShot(0, handle, [handle, outcome] { handle->finish(outcome); });
    return handle;
}
