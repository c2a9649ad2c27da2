#include "directorysession.h"

#include "directorydocument.h"

#include <QFileInfo>

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
    auto document = std::make_unique<DirectoryDocument>(std::move(store));
    if (const StoreError error = document->loadProgressively(); error.isError())
        return error;
    DirectoryDocument *old = m_document;
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
