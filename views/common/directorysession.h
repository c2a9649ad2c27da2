#pragma once

#include "dispatch/call/dispatcher.h"
#include "dispatch/directory/opendirectory.h"
#include "dispatch/store/directorystore.h"

#include <QMap>
#include <QObject>

#include <memory>

class CapabilityTokenStore;
class DirectoryDocument;
class DirectoryHistory;
class DirectoryLedger;
class MemorySecrets;
class ServerConnection;

// The directory the window currently shows. Opening another one builds and loads a new
// DirectoryDocument first and only then swaps it in: a file that fails to load leaves the
// current directory (and its unsaved edits) untouched. The old document is deleted after
// documentChanged() has let every view rewire to the new one.
//
// The session is also the Dispatcher of whatever directory is open: each opened directory
// brings its own (OpenDirectory), and the call panels, which outlive documents, hold the
// session and never a dispatcher that a reopen would replace. Panels ask the session for
// a capability (the ledger, the history, the tokens); a back end without it answers null.
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
    // "Capdesk — file.db[*]" (or the server's name), the [*] being where QWidget shows
    // its modified mark.
    QString windowTitle() const;

    // A directory on a server also brings the `server` it lives on, and `name`, the
    // profile name that titles it; a file is titled by its name.
    StoreError open(OpenDirectory directory, const QString &name = {},
                    std::shared_ptr<ServerConnection> server = {});
    // The open directory's own dispatcher; null when none is open.
    Dispatcher *dispatcher() const { return m_directory.dispatcher.get(); }
    // The open directory's receipts and signing key; null when none is open or it has none.
    const std::shared_ptr<DirectoryLedger> &ledger() const { return m_directory.ledger; }
    // Its event log and receipt chains; null when none is open or it keeps none.
    const std::shared_ptr<const DirectoryHistory> &history() const { return m_directory.history; }
    // Its capability tokens; null when none is open or it issues none here.
    const std::shared_ptr<CapabilityTokenStore> &tokens() const { return m_directory.tokens; }
    // Whether rows run on this build's builtins (OpenDirectory::builtinsAreLocal).
    bool builtinsAreLocal() const { return m_directory.builtinsAreLocal; }
    // The server the open directory lives on; null for a local file.
    const std::shared_ptr<ServerConnection> &connection() const { return m_connection; }
    // The profile name the server was opened under; empty for a local file.
    QString serverName() const { return m_connection ? m_name : QString(); }
    // Columns the open directory cannot change, each with the reason in plain words.
    QMap<QString, QString> readOnlyColumns() const { return m_directory.readOnlyColumns; }
    // Secret values set while no keychain answers, kept in memory for as long as the session
    // lives and handed to every local directory opened through it (a server runs its calls
    // with its own secrets). Never null.
    const std::shared_ptr<MemorySecrets> &memorySecrets() const { return m_memorySecrets; }
    // Forwards to dispatcher(); refuses (asynchronously, like every refusal) when no
    // directory is open. A server runs saved rows only: the editor's copy of a row without
    // unsaved edits is not sent along, one with edits is refused by the RemoteDispatcher.
    InvocationHandle *invoke(const InvocationRequest &request) override;
    // Forwards to dispatcher(), the flow's draft as invoke() sends one.
    InvocationHandle *recordFlowRun(const FlowRunRecord &run) override;
    // A fresh document over the same store, after something else wrote to it (an import).
    StoreError reload();

signals:
    void documentChanged(DirectoryDocument *document);
    // A call made through the session finished (its receipt, if any, is committed).
    void invocationFinished(const InvocationRequest &request, const InvocationOutcome &outcome);

private:
    InvocationHandle *refuse(const QString &reason);
    // The editor's copy of `key` to send along: none to a server when it has no edits.
    std::optional<Row> draftToSend(const QString &key, const std::optional<Row> &draft) const;
    // `handle`, which reports invocationFinished(request, …) when it finishes.
    InvocationHandle *reported(InvocationHandle *handle, const InvocationRequest &request);

    DirectoryDocument *m_document = nullptr;
    QString m_name;
    OpenDirectory m_directory;
    std::shared_ptr<ServerConnection> m_connection;
    std::shared_ptr<MemorySecrets> m_memorySecrets;
};
