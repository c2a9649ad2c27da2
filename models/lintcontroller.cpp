#include "lintcontroller.h"

#include "contractdocument.h"
#include "directorydocument.h"
#include "directorytablemodel.h"
#include "linter.h"
#include "lintrun.h"
#include "lintstate.h"
#include "sqlitedirectorystore.h"

#include <QLocale>
#include <QTimer>
#include <QtConcurrent/QtConcurrentMap>
#include <QtConcurrent/QtConcurrentRun>

namespace {

qint64 contractBytes(const std::optional<Row> &row)
{
    return row ? ContractDocument::render(*row).toUtf8().size() : 0;
}

QString shortCount(qint64 n)
{
    if (n >= 1000000)
        return QString::number(double(n) / 1e6, 'f', 1) + u'M';
    if (n >= 1000)
        return QString::number((n + 500) / 1000) + u'k';
    return QString::number(n);
}

} // namespace

LintController::LintController(QObject *parent)
    : QObject(parent), m_state(new LintState(this)), m_relintTimer(new QTimer(this))
{
    m_relintTimer->setSingleShot(true);
    m_relintTimer->setInterval(150);
    connect(m_relintTimer, &QTimer::timeout, this, &LintController::relintPending);
    connect(&m_indexWatcher, &QFutureWatcherBase::finished, this, &LintController::onIndexBuilt);
    connect(&m_registryWatcher, &QFutureWatcherBase::finished, this, [this] {
        if (m_registryWatcher.isCanceled())
            return;
        m_registryBytes = m_registryWatcher.result();
        emitRegistryTotal();
    });
    replaceRun(true);
}

// A run's engine flavour is fixed when it is made, and a document decides it.
void LintController::replaceRun(bool localEngine)
{
    delete m_run;
    m_localEngine = localEngine;
    m_run = new LintRun(localEngine, this);
    connect(m_run, &LintRun::progress, this, &LintController::progress);
    connect(m_run, &LintRun::finished, this, &LintController::onRunFinished);
    connect(m_run, &LintRun::cancelled, this, [this] {
        m_running = false;
        m_snapshot.clear();
        emit cancelled();
    });
}

LintController::~LintController() = default;

DirectoryDocument *LintController::document() const
{
    return m_document;
}

void LintController::setDocument(DirectoryDocument *document)
{
    if (m_document)
        disconnect(m_document, nullptr, this, nullptr);
    cancel();
    m_running = false;
    m_indexWatcher.cancel();
    m_registryWatcher.cancel();
    m_waitingResults.reset();
    m_snapshot.clear();
    m_document = document;
    m_index = DirectoryIndex();
    m_indexReady = false;
    m_pending.clear();
    m_changedDuringRun.clear();
    m_registryBytes = -1;
    m_bytesAtRead.clear();
    m_bytesNow.clear();
    m_state->clear();
    emitRegistryTotal();
    if (!m_document)
        return;
    // Remote directories may ship other builtins, so the builtin rule is local only.
    replaceRun(std::dynamic_pointer_cast<SqliteDirectoryStore>(m_document->sharedStore()) != nullptr);
    connect(m_document, &DirectoryDocument::rowChanged, this, &LintController::onRowChanged);
    // A (re)loaded table starts without levels; it gets the ones already known.
    connect(m_document->tableModel(), &DirectoryTableModel::loadFinished, this, [this] {
        if (!m_indexReady)
            return;
        QHash<QString, LintState::Lint> levels;
        for (auto it = m_state->all().cbegin(); it != m_state->all().cend(); ++it)
            levels.insert(it.key(), LintState::levelOf(it.value()));
        m_document->tableModel()->setLintLevels(levels, LintState::Lint::Clean);
    });
}

void LintController::setRelintDelay(int milliseconds)
{
    m_relintTimer->setInterval(milliseconds);
}

// The rows as the user sees them: stored rows with the drafts laid over them.
void LintController::readAll(QList<Row> *rows)
{
    const StoreResult<QList<Row>> stored = m_document->store().allRows();
    if (!stored.ok()) {
        emit m_document->readFailed(stored.error().message);
        return;
    }
    const QStringList drafted = m_document->modifiedKeys();
    const QSet<QString> draftedKeys(drafted.cbegin(), drafted.cend());
    rows->reserve(stored.value().size() + drafted.size());
    for (const Row &row : stored.value()) {
        if (!draftedKeys.contains(row.key))
            rows->append(row);
    }
    for (const QString &key : drafted) {
        if (const std::optional<Row> row = m_document->row(key))
            rows->append(*row);
    }
}

void LintController::lintAllWhenLoaded(int maxRows)
{
    if (!m_document)
        return;
    DirectoryTableModel *table = m_document->tableModel();
    auto lintIfSmall = [this, table, maxRows] {
        if (table->totalRows() <= maxRows)
            lintAll();
    };
    if (!table->isLoading()) {
        QTimer::singleShot(0, this, lintIfSmall);
        return;
    }
    connect(table, &DirectoryTableModel::loadFinished, this, lintIfSmall, Qt::SingleShotConnection);
}

void LintController::lintAll()
{
    if (!m_document)
        return;
    // The store's connection belongs to this thread, so the read happens here; the
    // linting, the expensive part, runs on the pool.
    QList<Row> rows;
    readAll(&rows);
    m_registryWatcher.cancel();
    m_waitingResults.reset();
    m_snapshot = rows;
    m_indexReady = false;
    m_changedDuringRun.clear();
    m_running = true;
    emit started();
    m_indexWatcher.setFuture(QtConcurrent::run([rows] { return DirectoryIndex::build(rows); }));
    m_run->start(rows);
}

void LintController::onIndexBuilt()
{
    if (m_indexWatcher.isCanceled())
        return;
    m_index = m_indexWatcher.result();
    m_indexReady = true;
    // Edits since the read are in the drafts, not in the snapshot the index was built from.
    for (const QString &key : std::as_const(m_changedDuringRun))
        refreshIndex(key);
    if (m_waitingResults)
        onRunFinished(*std::exchange(m_waitingResults, std::nullopt));
    else if (!m_running)
        relint(std::exchange(m_changedDuringRun, {})); // cancelled: edits still count
}

// The registry is summed after the lint, so the two never compete for the pool.
void LintController::startRegistryTotal()
{
    const QList<Row> rows = std::exchange(m_snapshot, {});
    m_bytesAtRead.clear();
    m_bytesNow.clear();
    m_registryWatcher.setFuture(QtConcurrent::mappedReduced(
        rows, [](const Row &row) { return qint64(ContractDocument::render(row).toUtf8().size()); },
        [](qint64 &total, qint64 bytes) { total += bytes; }));
}

void LintController::cancel()
{
    if (m_running)
        m_run->cancel();
}

void LintController::ensureIndex()
{
    if (m_indexReady || !m_document)
        return;
    QList<Row> rows;
    readAll(&rows);
    m_index = DirectoryIndex::build(rows);
    m_indexReady = true;
}

QList<SaveRefusal> LintController::explainSave()
{
    if (!m_document)
        return {};
    ensureIndex();
    return SaveExplainer::explain(*m_document, m_index);
}

void LintController::onRunFinished(const QHash<QString, QList<LintFinding>> &findingsByKey)
{
    // Re-linting the edits made meanwhile needs the new index; it is nearly always there.
    if (!m_indexReady) {
        m_waitingResults = findingsByKey;
        return;
    }
    m_running = false;
    m_state->replaceAll(findingsByKey);
    QHash<QString, LintState::Lint> levels;
    for (auto it = m_state->all().cbegin(); it != m_state->all().cend(); ++it)
        levels.insert(it.key(), LintState::levelOf(it.value()));
    m_document->tableModel()->setLintLevels(levels, LintState::Lint::Clean);
    // Edits made while it ran were linted against the snapshot; lint them again.
    relint(m_changedDuringRun);
    m_changedDuringRun.clear();
    startRegistryTotal();
    emit finished();
}

void LintController::onRowChanged(const QString &key)
{
    noteContractBytes(key);
    if (m_running || !m_indexReady)
        m_changedDuringRun.insert(key);
    if (!m_indexReady)
        return;
    m_pending.insert(key);
    m_relintTimer->start();
}

void LintController::relintPending()
{
    if (m_running)
        return; // the run's end re-lints them
    const QSet<QString> pending = std::exchange(m_pending, {});
    relint(pending);
    emitRegistryTotal();
}

void LintController::refreshIndex(const QString &key)
{
    if (const std::optional<Row> row = m_document->row(key))
        m_index.update(*row);
    else
        m_index.remove(key);
}

void LintController::relint(const QSet<QString> &changed)
{
    if (!m_document || changed.isEmpty())
        return;
    for (const QString &key : changed)
        refreshIndex(key);
    QSet<QString> affected = changed;
    for (const QString &key : changed) {
        for (const QString &referrer : m_index.referencing(key))
            affected.insert(referrer);
    }
    const Linter linter(m_index, m_localEngine);
    DirectoryTableModel *table = m_document->tableModel();
    for (const QString &key : std::as_const(affected)) {
        const std::optional<Row> row = m_document->row(key);
        if (!row) {
            m_state->remove(key);
            continue;
        }
        const QList<LintFinding> findings = linter.lint(*row);
        m_state->setFindings(key, findings);
        table->setLintLevel(key, LintState::levelOf(findings));
    }
}

void LintController::noteContractBytes(const QString &key)
{
    if (m_registryBytes < 0)
        return;
    // The first change of a row since the read: what it cost then is what the store holds.
    if (!m_bytesAtRead.contains(key)) {
        const StoreResult<Row> stored = m_document->store().row(key);
        m_bytesAtRead.insert(key, stored.ok() ? contractBytes(stored.value()) : 0);
    }
    m_bytesNow.insert(key, contractBytes(m_document->row(key)));
}

QString LintController::registryTotalText() const
{
    if (m_registryBytes < 0)
        return {};
    qint64 bytes = m_registryBytes;
    for (auto it = m_bytesNow.cbegin(); it != m_bytesNow.cend(); ++it)
        bytes += it.value() - m_bytesAtRead.value(it.key());
    // The same rule of thumb as ContractDocument::estimateTokens: ~4 bytes a token.
    const qint64 tokens = (bytes + 3) / 4;
    return tr("Contract registry: %1 · ~%2 tokens")
        .arg(QLocale().formattedDataSize(bytes, 1, QLocale::DataSizeSIFormat), shortCount(tokens));
}

void LintController::emitRegistryTotal()
{
    emit registryTotalChanged(registryTotalText());
}
