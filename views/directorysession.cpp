#include "directorysession.h"

#include "directorydocument.h"
#include "directoryledger.h"
#include "invocationhandle.h"
#include "sqlitedirectorystore.h"
#include "standarddispatcher.h"

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
    const QString name = QFileInfo(location()).fileName();
    return tr("Capdesk — %1[*]").arg(name.isEmpty() ? location() : name);
}

StoreError DirectorySession::open(std::shared_ptr<DirectoryStore> store)
{
    auto sqlite = std::dynamic_pointer_cast<SqliteDirectoryStore>(store);
    if (!sqlite)
        return StoreError::make(StoreError::Kind::NotDirectory, tr("%1 is not a local directory").arg(store->location()));
    auto document = std::make_unique<DirectoryDocument>(std::move(store));
    if (const StoreError error = document->loadProgressively(); error.isError())
        return error;
    DirectoryDocument *old = m_document;
    // Calls still running on the old dispatcher finish with it gone: their handles are
    // left unfinished, which the panels tolerate (they reset on documentChanged).
    m_ledger = std::make_shared<DirectoryLedger>(sqlite);
    m_dispatcher = std::make_unique<StandardDispatcher>(document->sharedStore(), m_ledger);
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
    return open(m_document->sharedStore());
}

InvocationHandle *DirectorySession::invoke(const InvocationRequest &request)
{
    if (m_dispatcher) {
        InvocationHandle *handle = m_dispatcher->invoke(request);
        connect(handle, &InvocationHandle::finished, this, [this, handle] { emit invocationFinished(handle->outcome()); });
        return handle;
    }
    auto *handle = new InvocationHandle;
    InvocationOutcome outcome;
    outcome.refusal = tr("no directory is open");
    QTimer::singleShot(0, handle, [handle, outcome] { handle->finish(outcome); });
    return handle;
}
