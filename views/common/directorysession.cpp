#include "views/common/directorysession.h"

#include "models/directorydocument.h"
#include "dispatch/invoke/directoryledger.h"
#include "dispatch/call/invocationhandle.h"
#include "remote/remotedirectorystore.h"
#include "remote/remotedispatcher.h"
#include "dispatch/store/sqlitedirectorystore.h"
#include "dispatch/invoke/standarddispatcher.h"

#include <QFileInfo>
#include <QTimer>

DirectorySession::DirectorySession(QObject *parent) : QObject(parent) {}

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
    const QString name = QFileInfo(location()).fileName();
    return tr("Capdesk — %1[*]").arg(name.isEmpty() ? location() : name);
}

QMap<QString, QString> DirectorySession::readOnlyColumns() const
{
    if (!m_connection)
        return {};
    const QString reason = tr("Read-only on a server: the server's PATCH allow-list (SPEC §10) does not include "
                              "runner or sensitive; change it on the server's own file.");
    return {{QStringLiteral("runner"), reason}, {QStringLiteral("sensitive"), reason}};
}

StoreError DirectorySession::open(std::shared_ptr<DirectoryStore> store, const QString &name)
{
    auto sqlite = std::dynamic_pointer_cast<SqliteDirectoryStore>(store);
    auto remote = std::dynamic_pointer_cast<RemoteDirectoryStore>(store);
    if (!sqlite && !remote)
        return StoreError::make(StoreError::Kind::NotDirectory, tr("%1 is not a directory Capdesk can open").arg(store->location()));
    auto document = std::make_unique<DirectoryDocument>(std::move(store));
    if (const StoreError error = document->loadProgressively(); error.isError())
        return error;
    DirectoryDocument *old = m_document;
    // Calls still running on the old dispatcher finish with it gone: their handles are
    // left unfinished, which the panels tolerate (they reset on documentChanged).
    if (remote) {
        m_ledger.reset();
        m_connection = remote->connection();
        m_dispatcher = std::make_unique<RemoteDispatcher>(m_connection);
    } else {
        m_connection.reset();
        m_ledger = std::make_shared<DirectoryLedger>(sqlite);
        m_dispatcher = std::make_unique<StandardDispatcher>(document->sharedStore(), m_ledger);
    }
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
    return open(m_document->sharedStore(), m_name);
}

InvocationHandle *DirectorySession::invoke(const InvocationRequest &request)
{
    if (!m_dispatcher)
        return refuse(tr("no directory is open"));
    InvocationRequest sent = request;
    if (m_connection && sent.draft && m_document && !m_document->isRowModified(sent.key))
        sent.draft.reset();
    InvocationHandle *handle = m_dispatcher->invoke(sent);
    connect(handle, &InvocationHandle::finished, this,
            [this, handle, sent] { emit invocationFinished(sent, handle->outcome()); });
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
