#include "models/lintcontroller.h"

#include "dispatch/contract/contractdocument.h"
#include "dispatch/core/poolrelease.h"
#include "dispatch/lint/linter.h"
#include "dispatch/lint/lintrun.h"
#include "models/directorydocument.h"
#include "models/directorytablemodel.h"
#include "models/lintstate.h"

#include <QLocale>
#include <QPromise>
#include <QTimer>
#include <QtConcurrent/QtConcurrentRun>

namespace {

qint64 contractBytes(const std::optional<Row> &row)
{
    return row ? ContractDocument::render(*row).toUtf8().size() : 0;
}

qint64 contractBytes(const QList<Row> &rows)
{
    qint64 total = 0;
    for (const Row &row : rows)
        total += ContractDocument::render(row).toUtf8().size();
    return total;
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
    connect(&m_registryWatcher, &QFutureWatcherBase::finished, this, [this] {
        if (!m_document || m_registryWatcher.isCanceled())
            return;
        // A read that failed leaves the total unknown, not stale.
        landRegistryTotal(m_registryWatcher.future().resultCount() ? m_registryWatcher.result() : -1);
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
        onRunEnded();
        emit cancelled();
    });
    connect(m_run, &LintRun::readFailed, this, [this](const QString &message) {
        onRunEnded();
        if (m_document)
            emit m_document->readFailed(message);
        emit cancelled();
    });
}

LintController::~LintController() = default;

DirectoryDocument *LintController::document() const
{
    return m_document;
}

void LintController::setDocument(DirectoryDocument *document, bool builtinsAreLocal)
{
    if (m_document)
        disconnect(m_document, nullptr, this, nullptr);
    cancel();
    m_running = false;
    m_registryWatcher.cancel();
    m_bytesReadByLint.reset();
    m_document = document;
    releaseOnPool(std::exchange(m_index, {}));
    m_indexReady = false;
    m_linted = false;
    m_pending.clear();
    m_changedDuringRun.clear();
    m_moved.clear();
    m_registryBytes = -1;
    m_bytesAtRead.clear();
    m_bytesNow.clear();
    m_state->clear();
    emitRegistryTotal();
    if (!m_document)
        return;
    replaceRun(builtinsAreLocal);
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
    // Only the drafts are read here; the store is read on the pool, which its scanRows()
    // allows from any thread.
    QSet<QString> drafted;
    QList<Row> drafts;
    for (const QString &key : m_document->modifiedKeys()) {
        drafted.insert(key);
        if (std::optional<Row> row = m_document->row(key))
            drafts.append(std::move(*row));
    }
    // A remote listing is slow and comes whole, so there the registry total is summed from
    // this read instead of a second one.
    m_bytesReadByLint =
        m_document->store().hasRoundTrips() ? std::make_shared<std::atomic<qint64>>(0) : nullptr;
    auto read = [store = m_document->sharedStore(), drafted, drafts,
                 storedBytes = m_bytesReadByLint](const LintRun::Batch &batch) {
        const StoreError error = store->scanRows(
            [&](QList<Row> &&rows) {
                if (storedBytes)
                    *storedBytes += contractBytes(rows);
                if (!drafted.isEmpty())
                    rows.removeIf([&drafted](const Row &row) { return drafted.contains(row.key); });
                return batch(std::move(rows));
            },
            DirectoryStore::kScanBatchRows, DirectoryStore::RowOrder::Any);
        if (error.isError() || drafts.isEmpty())
            return error;
        batch(QList<Row>(drafts));
        return StoreError::none();
    };
    m_registryWatcher.cancel();
    m_changedDuringRun.clear();
    m_running = true;
    emit started();
    // The table holds the drafts already, new rows included.
    m_run->start(std::move(read), m_document->tableModel()->totalRows());
}

// The registry is summed after the lint, so the two never compete for the pool, from a
// read of its own, batch by batch, so neither holds every row. It sums the stored rows;
// until it lands, the edits stay laid over the total before.
void LintController::startRegistryTotal()
{
    if (const std::shared_ptr<std::atomic<qint64>> summed = std::exchange(m_bytesReadByLint, nullptr)) {
        landRegistryTotal(summed->load());
        return;
    }
    m_registryWatcher.setFuture(QtConcurrent::run(
        [](QPromise<qint64> &promise, const std::shared_ptr<const DirectoryStore> &store) {
            qint64 total = 0;
            const StoreError error = store->scanRows(
                [&](QList<Row> &&rows) {
                    total += contractBytes(rows);
                    return !promise.isCanceled();
                },
                DirectoryStore::kScanBatchRows, DirectoryStore::RowOrder::Any);
            if (!error.isError() && !promise.isCanceled())
                promise.addResult(total);
        },
        std::shared_ptr<const DirectoryStore>(m_document->sharedStore())));
}

// From here the edits are laid over `storedBytes`, starting with the drafts of the moment;
// -1 (the read failed) clears the total.
void LintController::landRegistryTotal(qint64 storedBytes)
{
    m_registryBytes = storedBytes;
    m_bytesAtRead.clear();
    m_bytesNow.clear();
    for (const QString &key : m_document->modifiedKeys())
        noteContractBytes(key);
    emitRegistryTotal();
}

void LintController::cancel()
{
    if (m_running)
        m_run->cancel();
}

// A run that ended without results leaves the index as it was; the edits made meanwhile
// are re-linted against it.
void LintController::onRunEnded()
{
    m_running = false;
    if (m_indexReady)
        relint(std::exchange(m_changedDuringRun, {}));
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
    // Building the index reads every row; from a server that waits for the network, and
    // the server's own gate explains a refusal anyway.
    if (!m_indexReady && m_document->store().hasRoundTrips())
        return {};
    ensureIndex();
    // Edits still waiting for their re-lint are not in the index yet; the re-lint will
    // still see that they moved.
    for (const QString &key : m_pending + m_changedDuringRun)
        refreshIndex(key);
    return SaveExplainer::explain(m_document->saveDrafts(), m_index);
}

void LintController::onRunFinished(const QHash<QString, QList<LintFinding>> &findingsByKey)
{
    m_running = false;
    releaseOnPool(std::exchange(m_index, m_run->takeIndex()));
    m_indexReady = true;
    m_linted = true;
    m_moved.clear();
    m_state->replaceAll(findingsByKey);
    QHash<QString, LintState::Lint> levels;
    for (auto it = m_state->all().cbegin(); it != m_state->all().cend(); ++it)
        levels.insert(it.key(), LintState::levelOf(it.value()));
    m_document->tableModel()->setLintLevels(levels, LintState::Lint::Clean);
    // Edits made while it ran are in the drafts, not in the snapshot; lint them again.
    relint(std::exchange(m_changedDuringRun, {}));
    startRegistryTotal();
    emit finished();
}

void LintController::onRowChanged(const QString &key)
{
    // A row still on its way from a server is linted when it arrives (another rowChanged).
    if (!m_document->row(key) && m_document->contains(key))
        return;
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
    const std::optional<Row> row = m_document->row(key);
    if (row ? m_index.update(*row) : m_index.remove(key))
        m_moved.insert(key);
}

void LintController::relint(const QSet<QString> &changed)
{
    if (!m_document || changed.isEmpty())
        return;
    for (const QString &key : changed)
        refreshIndex(key);
    // Only rows reaching a row whose key or edges changed can have other link findings;
    // their own rules are unaffected, so they are not read, only relinked from the index.
    QSet<QString> referrers = m_index.reaching(std::exchange(m_moved, {}));
    referrers.subtract(changed);
    const Linter linter(m_index, m_localEngine);
    QHash<QString, LintState::Lint> levels;
    auto show = [this, &levels](const QString &key, const QList<LintFinding> &findings) {
        m_state->setFindings(key, findings);
        levels.insert(key, LintState::levelOf(findings));
    };
    auto lint = [this, &linter](const QString &key) {
        const std::optional<Row> row = m_document->row(key);
        return row ? linter.lint(*row) : QList<LintFinding>();
    };
    for (const QString &key : changed)
        show(key, lint(key));
    // Before the first lint-all the state lacks the referrers' own findings to keep.
    for (const QString &key : std::as_const(referrers))
        show(key, m_linted ? linter.relink(key, m_state->findings(key)) : lint(key));
    showLevels(levels);
}

// Each level the table takes singly costs it a search of its visible rows (and a re-sort
// when it is sorted or filtered by lint); past a hundred or so rows, one pass over all of
// them is cheaper.
void LintController::showLevels(const QHash<QString, LintState::Lint> &levels)
{
    constexpr qsizetype MaxSingleUpdates = 128;
    DirectoryTableModel *table = m_document->tableModel();
    QList<QString> moved;
    for (auto it = levels.cbegin(); it != levels.cend(); ++it) {
        if (table->lintLevel(it.key()) != it.value())
            moved.append(it.key());
    }
    // Before the first lint-all, rows not re-linted here are unknown, not clean.
    if (moved.size() <= MaxSingleUpdates || !m_linted) {
        for (const QString &key : std::as_const(moved))
            table->setLintLevel(key, levels.value(key));
        return;
    }
    QHash<QString, LintState::Lint> all;
    for (auto it = m_state->all().cbegin(); it != m_state->all().cend(); ++it)
        all.insert(it.key(), LintState::levelOf(it.value()));
    table->setLintLevels(all, LintState::Lint::Clean);
}

void LintController::noteContractBytes(const QString &key)
{
    if (m_registryBytes < 0)
        return;
    // The first change of a row since the read: what it cost then is what the store holds.
    if (!m_bytesAtRead.contains(key))
        m_bytesAtRead.insert(key, contractBytes(m_document->baseRow(key)));
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
