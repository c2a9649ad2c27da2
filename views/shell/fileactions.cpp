#include "views/shell/fileactions.h"

#include "dispatch/secrets/keychainstore.h"
#include "dispatch/store/defaultlocations.h"
#include "dispatch/store/directoryexporter.h"
#include "dispatch/store/directoryimporter.h"
#include "dispatch/store/postgreslocation.h"
#include "models/directorydocument.h"
#include "models/guithreadinbox.h"
#include "models/networkpool.h"
#include "views/common/directorysession.h"
#include "views/common/prompter.h"
#include "views/common/rowstext.h"
#include "views/shell/directoryopener.h"
#include "views/shell/recentfiles.h"

#include <QAction>
#include <QDir>
#include <QFileInfo>
#include <QIcon>
#include <QMenu>
#include <QSaveFile>
#include <QtConcurrent>

FileActions::FileActions(DirectorySession &session, Prompter &prompter, QObject *parent)
    : QObject(parent), m_session(session), m_prompter(prompter), m_guard(prompter),
      m_new(new QAction(QIcon::fromTheme(QStringLiteral("document-new")), tr("&New Directory…"), this)),
      m_open(new QAction(QIcon::fromTheme(QStringLiteral("document-open")), tr("&Open…"), this)),
      m_recent(new QMenu(tr("Open &Recent"))), m_import(new QAction(tr("&Import Rows…"), this)),
      m_export(new QAction(tr("&Export Rows…"), this)),
      m_quit(new QAction(QIcon::fromTheme(QStringLiteral("application-exit")), tr("&Quit"), this))
{
    m_new->setShortcut(QKeySequence::New);
    m_open->setShortcut(QKeySequence::Open);
    m_quit->setShortcut(QKeySequence::Quit);
    m_quit->setMenuRole(QAction::QuitRole);

    connect(m_new, &QAction::triggered, this, &FileActions::newDirectory);
    connect(m_open, &QAction::triggered, this, &FileActions::chooseAndOpen);
    connect(m_import, &QAction::triggered, this, &FileActions::importRows);
    connect(m_export, &QAction::triggered, this, &FileActions::exportRows);
    connect(m_quit, &QAction::triggered, this, &FileActions::quitRequested);
    connect(m_recent, &QMenu::aboutToShow, this, &FileActions::rebuildRecentMenu);
    connect(&m_session, &DirectorySession::documentChanged, this, &FileActions::updateActions);
    rebuildRecentMenu();
    updateActions();
}

// QMenu wants a widget parent, so the menu has none and is deleted here.
FileActions::~FileActions()
{
    delete m_recent;
}

QString FileActions::near() const
{
    const QString location = m_session.location();
    return location.isEmpty() || PostgresLocation::isUrl(location) ? QDir::homePath() : location;
}

void FileActions::updateActions()
{
    const bool open = m_session.document();
    m_import->setEnabled(open);
    m_export->setEnabled(open);
}

bool FileActions::openPath(const QString &path)
{
    if (!m_guard.mayDrop(m_session.document()))
        return false;
    if (PostgresLocation::isUrl(path))
        return openWithStoredPassword(path);
    return openNow(path, QString());
}

bool FileActions::openLocation(const QString &location, const QString &password)
{
    return m_guard.mayDrop(m_session.document()) && openNow(location, password);
}

bool FileActions::openWithStoredPassword(const QString &url)
{
    const StoreResult<PostgresLocation> location = PostgresLocation::parse(url);
    if (!location.ok()) {
        m_prompter.showError(tr("Cannot Open Directory"), location.error().message);
        return false;
    }
    emit statusMessage(
        tr("Reading the password of %1 from the keychain\u2026").arg(location.value().display()));
    // Read here, not by the store: a blocking keychain read on the GUI thread would stall it.
    KeychainStore().readAsync(
        location.value().keychainName(), this, [this, url](const KeychainStore::Read &read) {
            openNow(url, read.status == KeychainStore::Read::Status::Found ? read.value : QString());
        });
    return true;
}

bool FileActions::openNow(const QString &path, const QString &password)
{
    DirectoryOpener::Opened directory = DirectoryOpener::open(path, m_session.memorySecrets(), password);
    StoreError error = directory.ok() ? m_session.open(directory.value()) : directory.error();
    if (error.isError()) {
        m_prompter.showError(tr("Cannot Open Directory"), error.message);
        // A server that is down now may answer later; a file that is gone will not come back.
        if (!PostgresLocation::isUrl(path) && !QFileInfo::exists(path))
            RecentFiles::remove(path);
        return false;
    }
    RecentFiles::add(path);
    emit statusMessage(tr("Opened %1").arg(QDir::toNativeSeparators(path)));
    return true;
}

bool FileActions::openAtStart(const QString &path)
{
    if (PostgresLocation::isUrl(path))
        return openWithStoredPassword(path);
    const QString file = path.isEmpty() ? DefaultLocations::directoryFile() : path;
    DirectoryOpener::Opened directory = path.isEmpty()
                                            ? DirectoryOpener::openDefault(file, m_session.memorySecrets())
                                            : DirectoryOpener::open(file, m_session.memorySecrets());
    StoreError error = directory.ok() ? m_session.open(directory.value()) : directory.error();
    if (error.isError()) {
        // The window stays up without a directory: File > Open and New still work.
        m_prompter.showError(tr("Cannot Open Directory"), error.message);
        return false;
    }
    RecentFiles::add(file);
    return true;
}

void FileActions::chooseAndOpen()
{
    const QString path = m_prompter.chooseOpenPath(near());
    if (!path.isEmpty())
        openPath(path);
}

void FileActions::newDirectory()
{
    const QString path = m_prompter.chooseNewPath(near());
    if (path.isEmpty() || !m_guard.mayDrop(m_session.document()))
        return;
    DirectoryOpener::Opened directory =
        DirectoryOpener::create(path, m_prompter.askFillWithSamples(), m_session.memorySecrets());
    StoreError error = directory.ok() ? m_session.open(directory.value()) : directory.error();
    if (error.isError()) {
        m_prompter.showError(tr("Cannot Create Directory"), error.message);
        return;
    }
    RecentFiles::add(path);
    emit statusMessage(tr("Created %1").arg(QDir::toNativeSeparators(path)));
}

bool FileActions::importRows()
{
    DirectoryDocument *document = m_session.document();
    if (!document)
        return false;
    const QString path = m_prompter.chooseImportPath(near());
    // The import is followed by a reload, which would drop unsaved edits: ask first.
    if (path.isEmpty() || !m_guard.mayDrop(document))
        return false;
    return startImport(path, ImportOptions());
}

bool FileActions::startImport(const QString &path, const ImportOptions &options)
{
    DirectoryDocument *document = m_session.document();
    if (!document)
        return false;
    return onStore<StoreResult<ImportReport>>(
        document->sharedStore(),
        [path, options](DirectoryStore &store) {
            return DirectoryImporter::importFile(store, path, options);
        },
        [this, path, options,
         into = document->store().location()](const StoreResult<ImportReport> &imported) {
            // The choice `capdeskctl import --allow-noncompliant` offers, asked once.
            if (!imported.ok() && !options.allowNoncompliant
                && DirectoryImporter::isHygieneRefusal(imported.error()) && m_session.document()
                && m_session.document()->store().location() == into
                && m_prompter.confirmImportNoncompliant(imported.error().message)) {
                ImportOptions legacy = options;
                legacy.allowNoncompliant = true;
                return startImport(path, legacy);
            }
            return finishImport(path, into, imported);
        });
}

template<typename Result>
bool FileActions::onStore(const std::shared_ptr<DirectoryStore> &store,
                          std::function<Result(DirectoryStore &)> work,
                          std::function<bool(const Result &)> done)
{
    if (!store->hasRoundTrips())
        return done(work(*store));
    emit statusMessage(tr("Working on the server… the window stays usable."));
    QtConcurrent::run(&NetworkPool::instance(), [store, work]() mutable {
        Result result = work(*store);
        // Released on the GUI thread, also when this object is gone by now.
        GuiThreadInbox::post([keep = std::move(store)] {});
        return result;
    }).then(this, [done](const Result &result) { done(result); });
    return true;
}

bool FileActions::finishImport(const QString &path, const QString &importedInto,
                               const StoreResult<ImportReport> &imported)
{
    if (!imported.ok()) {
        m_prompter.showError(tr("Import Failed"),
                             tr("Nothing was imported from %1.\n\n%2")
                                 .arg(QFileInfo(path).fileName(), imported.error().message));
        return false;
    }
    // A server's import ends later, and the window was usable meanwhile: its rows are read
    // again keeping what was typed since (and only if that directory is still open).
    DirectoryDocument *document = m_session.document();
    const bool background = document && document->store().hasRoundTrips();
    if (background && document->store().location() != importedInto) {
        emit statusMessage(tr("Imported %1 into %2, which is no longer open.")
                               .arg(RowsText::rows(imported.value().imported), importedInto));
        return true;
    }
    if (const StoreError error = background ? document->reload() : m_session.reload(); error.isError()) {
        m_prompter.showError(tr("Reload Failed"), error.message);
        return false;
    }
    m_prompter.showInfo(tr("Import Finished"), importSummary(path, imported.value()));
    return true;
}

QString FileActions::importSummary(const QString &path, const ImportReport &report)
{
    QStringList lines{
        tr("Imported %1 from %2.").arg(RowsText::rows(report.imported), QFileInfo(path).fileName())};
    if (!report.skipped.isEmpty())
        lines.append(
            tr("Left out (not the directory table): %1.").arg(report.skipped.join(QStringLiteral(", "))));
    if (!report.noncompliant.isEmpty()) {
        QStringList keys;
        QHash<QString, QStringList> codes;
        for (const LintFinding &finding : report.noncompliant) {
            if (!codes.contains(finding.key))
                keys.append(finding.key);
            codes[finding.key].append(finding.code + u' ' + finding.name);
        }
        lines.append(tr("Imported as they are, breaking hygiene rules:"));
        for (const QString &key : std::as_const(keys))
            lines.append(QStringLiteral("%1: %2").arg(key, codes.value(key).join(QStringLiteral(", "))));
    }
    return lines.join(u'\n');
}

bool FileActions::exportRows()
{
    DirectoryDocument *document = m_session.document();
    if (!document)
        return false;
    const Prompter::ExportTarget target = m_prompter.chooseExportTarget(near());
    if (target.path.isEmpty())
        return false;
    const auto format = target.format == Prompter::ExportFormat::Sql ? DirectoryExporter::Format::Sql
                                                                     : DirectoryExporter::Format::Json;
    const bool hadEdits = document->isModified();
    return onStore<StoreResult<QByteArray>>(
        document->sharedStore(),
        [format](DirectoryStore &store) { return DirectoryExporter::exportBytes(store, format); },
        [this, path = target.path, hadEdits](const StoreResult<QByteArray> &bytes) {
            return finishExport(path, hadEdits, bytes);
        });
}

bool FileActions::finishExport(const QString &path, bool hadEdits, const StoreResult<QByteArray> &bytes)
{
    if (!bytes.ok()) {
        m_prompter.showError(tr("Export Failed"), bytes.error().message);
        return false;
    }
    // QSaveFile: an export that fails half-way never leaves a truncated file behind.
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes.value()) != bytes.value().size()
        || !file.commit()) {
        m_prompter.showError(
            tr("Export Failed"),
            tr("Cannot write %1: %2").arg(QDir::toNativeSeparators(path), file.errorString()));
        return false;
    }
    emit statusMessage(hadEdits ? tr("Exported the saved rows to %1; unsaved edits are not included.")
                                      .arg(QDir::toNativeSeparators(path))
                                : tr("Exported to %1").arg(QDir::toNativeSeparators(path)));
    return true;
}

void FileActions::rebuildRecentMenu()
{
    m_recent->clear();
    const QStringList paths = RecentFiles::list();
    for (const QString &path : paths) {
        QAction *entry = m_recent->addAction(QDir::toNativeSeparators(path));
        connect(entry, &QAction::triggered, this, [this, path] { openPath(path); });
    }
    if (paths.isEmpty())
        m_recent->addAction(tr("No recent directories"))->setEnabled(false);
    m_recent->addSeparator();
    QAction *clear = m_recent->addAction(tr("Clear Menu"));
    clear->setEnabled(!paths.isEmpty());
    connect(clear, &QAction::triggered, this, [] { RecentFiles::clear(); });
}
