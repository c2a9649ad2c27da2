#pragma once

#include "directorystore.h"
#include "dispatcher.h"

#include <QObject>

#include <memory>

class DirectoryDocument;
class DirectoryLedger;

// The directory the window currently shows. Opening another one builds and loads a new
// DirectoryDocument first and only then swaps it in: a file that fails to load leaves the
// current directory (and its unsaved edits) untouched. The old document is deleted after
// documentChanged() has let every view rewire to the new one.
//
// The session is also the Dispatcher of whatever directory is open: each document gets
// its own (a StandardDispatcher over its store), and the call panels, which outlive
// documents, hold the session and never a dispatcher that a reopen would replace.
class DirectorySession final : public QObject, public Dispatcher
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(DirectorySession)

public:
    explicit DirectorySession(QObject *parent = nullptr);
    ~DirectorySession() override;

    DirectoryDocument *document() const { return m_document; }
    // The open directory's path or URL; empty when none is open.
    QString location() const;
    // "Capdesk — file.db[*]", the [*] being where QWidget shows its modified mark.
    QString windowTitle() const;

    StoreError open(std::shared_ptr<DirectoryStore> store);
    // The open directory's own dispatcher; null when none is open.
    Dispatcher *dispatcher() const { return m_dispatcher.get(); }
    // The open directory's receipts, tokens and signing key; null when none is open.
    const std::shared_ptr<DirectoryLedger> &ledger() const { return m_ledger; }
    // Forwards to dispatcher(); refuses (asynchronously, like every refusal) when no
    // directory is open.
    InvocationHandle *invoke(const InvocationRequest &request) override;
    // A fresh document over the same store, after something else wrote to it (an import).
    StoreError reload();

signals:
    void documentChanged(DirectoryDocument *document);
    // A call made through the session finished (its receipt, if any, is committed).
    void invocationFinished(const InvocationOutcome &outcome);

private:
    DirectoryDocument *m_document = nullptr;
    std::shared_ptr<DirectoryLedger> m_ledger;
    std::unique_ptr<Dispatcher> m_dispatcher;
};
