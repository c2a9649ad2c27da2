#pragma once

#include "dispatch/core/storeerror.h"
#include "dispatch/store/directoryimporter.h"
#include "views/shell/unsavedchangesguard.h"

#include <QObject>

#include <functional>
#include <memory>

class DirectorySession;
class DirectoryStore;
class Prompter;
class QAction;
class QMenu;

// The File menu: new, open, open recent, import, export and quit. Every path that would
// replace the open document asks the UnsavedChangesGuard first; every failure is shown
// with the store's own message and leaves the current directory as it was. Import and
// export of a directory on a server run off the GUI thread (their result is shown when
// they end; the functions then answer true for "started").
class FileActions final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(FileActions)

public:
    FileActions(DirectorySession &session, Prompter &prompter, QObject *parent = nullptr);
    ~FileActions() override;

    QAction *newAction() const { return m_new; }
    QAction *openAction() const { return m_open; }
    QMenu *recentMenu() const { return m_recent; }
    QAction *importAction() const { return m_import; }
    QAction *exportAction() const { return m_export; }
    QAction *quitAction() const { return m_quit; }

    // A file, here and now; or a postgresql:// URL, whose password is read from the
    // keychain first (asynchronously: true then means started, and the outcome is shown).
    bool openPath(const QString &path);
    // A file or URL with the password known already (File → Open PostgreSQL Directory…).
    bool openLocation(const QString &location, const QString &password);
    // The directory the app starts on: `path`, or the default one (created with the
    // sample rows on first start) when `path` is empty.
    bool openAtStart(const QString &path);
    void newDirectory();
    void chooseAndOpen();
    bool importRows();
    bool exportRows();

signals:
    void quitRequested();
    void statusMessage(const QString &message);

private:
    QString near() const;
    bool openWithStoredPassword(const QString &url);
    bool openNow(const QString &path, const QString &password);
    // Runs `work` on `store`: here for a file, on the network pool for a server, with
    // `done` called here either way. The answer is done's for a file, true for a server
    // (started).
    template<typename Result>
    bool onStore(const std::shared_ptr<DirectoryStore> &store, std::function<Result(DirectoryStore &)> work,
                 std::function<bool(const Result &)> done);
    bool startImport(const QString &path, const ImportOptions &options);
    bool finishImport(const QString &path, const QString &importedInto,
                      const StoreResult<ImportReport> &imported);
    static QString importSummary(const QString &path, const ImportReport &report);
    bool finishExport(const QString &path, bool hadEdits, const StoreResult<QByteArray> &bytes);
    void rebuildRecentMenu();
    void updateActions();

    DirectorySession &m_session;
    Prompter &m_prompter;
    UnsavedChangesGuard m_guard;
    QAction *m_new;
    QAction *m_open;
    QMenu *m_recent;
    QAction *m_import;
    QAction *m_export;
    QAction *m_quit;
};
