#include "models/directorydocument.h"

#include "dispatch/lint/saveexplainer.h"
#include "dispatch/store/rowrestore.h"

#include "models/categorycountmodel.h"
#include "models/changefeedpoller.h"
#include "models/contentsearch.h"
#include "models/directorytablemodel.h"
#include "models/rowchangecommand.h"
#include "models/rowreader.h"
#include "models/storewriter.h"

namespace {

RowSummary summaryOf(const Row &row)
{
    return {row.key, row.type, row.category, row.target, row.updatedAt, row.enabled, row.sensitive};
}

// How the table shows a key: the row's summary, or its removal when there is no row.
DirectoryTableModel::Update tableUpdate(const QString &key, const std::optional<Row> &row, bool modified)
{
    DirectoryTableModel::Update update;
    update.modified = modified;
    update.remove = !row;
    if (row)
        update.summary = summaryOf(*row);
    else
        update.summary.key = key;
    return update;
}

// Timestamps belong to the store; two rows that differ only there are the same edit.
bool sameContent(const std::optional<Row> &a, const std::optional<Row> &b)
{
    if (a.has_value() != b.has_value())
        return false;
    if (!a)
        return true;
    Row left = *a;
    Row right = *b;
    left.updatedAt = right.updatedAt;
    left.createdAt = right.createdAt;
    return left == right;
}

QString newRowContent(const QString &key, const QString &type)
{
    const bool documentsOutput = type == QLatin1String("fn") || type == QLatin1String("http");
    QString content = QStringLiteral("# WHAT: \n# WHEN_TO_USE: \n# ARGS: none\n# EX: [%1][/%1]\n").arg(key);
    if (documentsOutput)
        content += QStringLiteral("# OUTPUT: \n");
    return content;
}

QString retagExamples(QString content, const QString &from, const QString &to)
{
    content.replace(u'[' + from + u']', u'[' + to + u']');
    content.replace(QStringLiteral("[/") + from + u']', QStringLiteral("[/") + to + u']');
    return content;
}

} // namespace

DirectoryDocument::DirectoryDocument(std::shared_ptr<DirectoryStore> store, QObject *parent)
    : QObject(parent), m_store(std::move(store)), m_table(new DirectoryTableModel(this)),
      m_categories(new CategoryCountModel(this)), m_contentSearch(new ContentSearch(m_store, this)),
      m_undo(new QUndoStack(this)), m_feed(new ChangeFeedPoller(m_store, this))
{
    connect(m_feed, &ChangeFeedPoller::changed, this, &DirectoryDocument::applyOutsideChanges);
    connect(m_table, &DirectoryTableModel::categoriesChanged, this,
            [this] { m_categories->rebuild(m_table->summaries()); });
    connect(m_table, &DirectoryTableModel::loadFinished, this, [this](const QString &error) {
        for (const DirectoryChanges &changes : std::exchange(m_changesDuringLoad, {}))
            applyOutsideChanges(changes);
        showDraftsInTable();
        if (!error.isEmpty())
            emit readFailed(error);
    });
    connect(m_contentSearch, &ContentSearch::failed, this, &DirectoryDocument::readFailed);
    if (m_store->hasRoundTrips()) {
        m_reader = new RowReader(m_store, this);
        m_writer = new StoreWriter(m_store, this);
        connect(m_reader, &RowReader::fetched, this, &DirectoryDocument::onFetched);
        connect(m_reader, &RowReader::fetchFailed, this, &DirectoryDocument::onFetchFailed);
        connect(m_reader, &RowReader::inFlightChanged, this, &DirectoryDocument::readsInFlightChanged);
        connect(m_writer, &StoreWriter::writingChanged, this, &DirectoryDocument::savingChanged);
    }
}

DirectoryDocument::~DirectoryDocument() = default;

StoreError DirectoryDocument::load()
{
    m_drafts.clear();
    m_undo->clear();
    m_feed->start();
    const StoreError error = m_table->load(*m_store);
    emit modifiedChanged(false);
    return error;
}

StoreError DirectoryDocument::loadProgressively()
{
    m_drafts.clear();
    m_undo->clear();
    m_feed->start();
    const StoreError error = m_table->loadProgressively(m_store);
    emit modifiedChanged(false);
    return error;
}

StoreError DirectoryDocument::reload()
{
    if (m_reader)
        m_reader->invalidate();
    m_feed->start();
    return m_table->loadProgressively(m_store);
}

namespace {

bool sameSummary(const RowSummary &a, const RowSummary &b)
{
    return a.key == b.key && a.type == b.type && a.category == b.category && a.target == b.target
           && a.updatedAt == b.updatedAt && a.enabled == b.enabled && a.sensitive == b.sensitive;
}

} // namespace

// A drafted key keeps showing its draft: a change under it is found when it is saved (the
// conflict and its merge), never by overwriting what the user typed. A row read before is
// stale once its summary carries another updated_at, so it is read again when next shown.
void DirectoryDocument::applyOutsideChanges(const DirectoryChanges &changes)
{
    if (m_table->isLoading()) {
        m_changesDuringLoad.append(changes);
        return;
    }
    QList<DirectoryTableModel::Update> updates;
    QStringList keys;
    auto upsert = [&](const RowSummary &summary) {
        if (m_drafts.contains(summary.key))
            return;
        const std::optional<RowSummary> shown = m_table->summary(summary.key);
        if (shown && sameSummary(*shown, summary))
            return;
        updates.append({summary, false, false});
        keys.append(summary.key);
    };
    auto remove = [&](const QString &key) {
        if (m_drafts.contains(key) || !m_table->summary(key))
            return;
        DirectoryTableModel::Update update;
        update.summary.key = key;
        update.remove = true;
        updates.append(update);
        keys.append(key);
    };
    for (const RowSummary &summary : changes.changed)
        upsert(summary);
    if (changes.complete) {
        QSet<QString> listed;
        for (const RowSummary &summary : changes.changed)
            listed.insert(summary.key);
        const SummaryTable &table = m_table->summaries();
        for (int i = 0; i < table.size(); ++i) {
            if (const QString key = table.key(i); !listed.contains(key))
                remove(key);
        }
    } else {
        for (const QString &key : changes.removed)
            remove(key);
    }
    if (updates.isEmpty())
        return;
    m_table->apply(updates);
    for (const QString &key : std::as_const(keys))
        emit rowChanged(key);
    emit changedElsewhere(keys);
}

// Edits made while the full table was still loading must survive its arrival.
void DirectoryDocument::showDraftsInTable()
{
    QList<DirectoryTableModel::Update> updates;
    for (auto it = m_drafts.cbegin(); it != m_drafts.cend(); ++it)
        updates.append(tableUpdate(it.key(), it->current, true));
    m_table->apply(updates);
}

namespace {

bool serverUnavailable(const StoreError &error)
{
    return error.kind == StoreError::Kind::Unreachable || error.kind == StoreError::Kind::Unauthorized;
}

} // namespace

std::optional<Row> DirectoryDocument::storedRow(const QString &key) const
{
    if (m_reader)
        return heldRow(key);
    StoreResult<Row> result = m_store->row(key);
    if (!result.ok()) {
        if (result.error().kind != StoreError::Kind::NotFound)
            reportReadFailure(result.error());
        return std::nullopt;
    }
    return result.value();
}

// Asking is a side effect of a const lookup on purpose: every panel asks row() for the
// selected key, and the first miss is what starts the one fetch they all wait for.
std::optional<Row> DirectoryDocument::heldRow(const QString &key) const
{
    const std::optional<RowSummary> summary = m_table->summary(key);
    if (!summary && !m_table->isLoading())
        return std::nullopt;
    if (summary) {
        if (std::optional<Row> fresh = m_reader->fresh(key, summary->updatedAt))
            return fresh;
    }
    if (m_readsFailing) {
        if (std::optional<Row> known = m_reader->lastRead(key))
            return known;
    }
    m_reader->fetch(key);
    return std::nullopt;
}

void DirectoryDocument::onFetched(const QString &key, const std::optional<Row> &row)
{
    m_readsFailing = false;
    m_loadErrors.remove(key);
    // The row read is the truth: a summary the change feed has not caught up with yet
    // would make it look stale and ask again.
    if (!m_drafts.contains(key)) {
        const std::optional<RowSummary> summary = m_table->summary(key);
        if (row && (!summary || summary->updatedAt != row->updatedAt))
            m_table->apply({tableUpdate(key, row, false)});
        else if (!row && summary)
            m_table->apply({tableUpdate(key, std::nullopt, false)});
    }
    emit rowChanged(key);
}

void DirectoryDocument::onFetchFailed(const QString &key, const StoreError &error)
{
    m_readsFailing = serverUnavailable(error);
    m_loadErrors.insert(key, error.message);
    reportReadFailure(error);
    emit rowChanged(key);
}

bool DirectoryDocument::isLoading(const QString &key) const
{
    return m_reader && !m_drafts.contains(key) && m_reader->isFetching(key);
}

QString DirectoryDocument::loadError(const QString &key) const
{
    return m_drafts.contains(key) ? QString() : m_loadErrors.value(key);
}

std::optional<RowSummary> DirectoryDocument::summary(const QString &key) const
{
    return m_table->summary(key);
}

int DirectoryDocument::readsInFlight() const
{
    return m_reader ? m_reader->inFlight() : 0;
}

void DirectoryDocument::reportReadFailure(const StoreError &error) const
{
    // Lookups are const for their callers; telling the window about a failed read changes
    // nothing the document holds.
    emit const_cast<DirectoryDocument *>(this)->readFailed(error.message);
}

QHash<QString, Row> DirectoryDocument::storedRows(const QStringList &keys) const
{
    QHash<QString, Row> rows;
    if (m_reader) {
        for (const QString &key : keys) {
            if (std::optional<Row> known = m_reader->lastRead(key))
                rows.insert(key, *known);
        }
        return rows;
    }
    const StoreResult<QList<Row>> found = m_store->rows(keys);
    if (!found.ok()) {
        reportReadFailure(found.error());
        return rows;
    }
    for (const Row &row : found.value())
        rows.insert(row.key, row);
    return rows;
}

QHash<QString, Row> DirectoryDocument::currentRows(const QStringList &keys) const
{
    QHash<QString, Row> rows;
    QStringList undrafted;
    for (const QString &key : keys) {
        const auto draft = m_drafts.constFind(key);
        if (draft == m_drafts.constEnd())
            undrafted.append(key);
        else if (draft->current)
            rows.insert(key, *draft->current);
    }
    rows.insert(storedRows(undrafted));
    return rows;
}

std::optional<Row> DirectoryDocument::row(const QString &key) const
{
    const auto draft = m_drafts.constFind(key);
    if (draft != m_drafts.constEnd())
        return draft->current;
    return storedRow(key);
}

bool DirectoryDocument::isStored(const QString &key) const
{
    const auto draft = m_drafts.constFind(key);
    if (draft != m_drafts.constEnd())
        return draft->stored.has_value();
    if (m_reader)
        return m_table->summary(key).has_value();
    return storedRow(key).has_value();
}

bool DirectoryDocument::contains(const QString &key) const
{
    const auto draft = m_drafts.constFind(key);
    if (draft != m_drafts.constEnd())
        return draft->current.has_value();
    if (m_reader)
        return m_table->summary(key).has_value();
    return storedRow(key).has_value();
}

QString DirectoryDocument::freeKey(const QString &base) const
{
    QString key = base.left(60);
    for (int n = 2; contains(key); ++n)
        key = base.left(60) + u'_' + QString::number(n);
    return key;
}

void DirectoryDocument::pushChange(const QString &key, const std::optional<Row> &after, const QString &text,
                                   const QString &mergeField)
{
    m_undo->push(new RowChangeCommand(this, {{key, row(key), after}}, text, mergeField));
}

void DirectoryDocument::setField(const QString &key, const QString &column, const QVariant &value)
{
    const std::optional<Row> current = row(key);
    if (!current)
        return;
    Row after = *current;
    if (!after.setValue(column, value) || after == *current)
        return;
    pushChange(key, after, tr("Edit %1 of %2").arg(column, key), key + u'\x1f' + column);
}

bool DirectoryDocument::restoreVersion(const Row &version, qint64 versionSeq)
{
    const std::optional<Row> current = row(version.key);
    if (!current)
        return false;
    const Row after = RowRestore::onto(*current, version);
    if (after == *current)
        return false;
    m_restores.insert(version.key, {versionSeq, after});
    pushChange(version.key, after, tr("Restore %1 to version #%2").arg(version.key).arg(versionSeq));
    return true;
}

QString DirectoryDocument::createRow(const QString &type)
{
    Row row;
    row.key = freeKey(QStringLiteral("NEW_") + type.toUpper());
    row.type = type;
    row.target = QStringLiteral("");
    row.content = newRowContent(row.key, type);
    pushChange(row.key, row, tr("Create %1").arg(row.key));
    return row.key;
}

QString DirectoryDocument::duplicateRow(const QString &key)
{
    const std::optional<Row> source = row(key);
    if (!source)
        return {};
    Row copy = *source;
    copy.key = freeKey(key + QStringLiteral("_COPY"));
    copy.content = retagExamples(copy.content, key, copy.key);
    copy.updatedAt.clear();
    copy.createdAt.clear();
    pushChange(copy.key, copy, tr("Duplicate %1 as %2").arg(key, copy.key));
    return copy.key;
}

void DirectoryDocument::renameRow(const QString &key, const QString &newKey)
{
    const std::optional<Row> current = row(key);
    if (!current || isStored(key) || newKey == key || contains(newKey))
        return;
    Row renamed = *current;
    renamed.key = newKey;
    renamed.content = retagExamples(renamed.content, key, newKey);
    m_undo->push(new RowChangeCommand(this, {{key, current, std::nullopt}, {newKey, std::nullopt, renamed}},
                                      tr("Rename %1 to %2").arg(key, newKey)));
    emit rowRenamed(key, newKey);
}

void DirectoryDocument::withCurrentRows(const QStringList &keys,
                                        std::function<void(const QHash<QString, Row> &)> then)
{
    if (!m_reader) {
        then(currentRows(keys));
        return;
    }
    QHash<QString, Row> rows;
    QStringList missing;
    for (const QString &key : keys) {
        if (const auto draft = m_drafts.constFind(key); draft != m_drafts.constEnd()) {
            if (draft->current)
                rows.insert(key, *draft->current);
        } else if (const std::optional<RowSummary> summary = m_table->summary(key)) {
            if (std::optional<Row> fresh = m_reader->fresh(key, summary->updatedAt))
                rows.insert(key, *fresh);
            else
                missing.append(key);
        }
    }
    if (missing.isEmpty()) {
        then(rows);
        return;
    }
    m_reader->fetchRows(missing, [this, keys, rows, missing, then](const QHash<QString, Row> &fetched,
                                                                   const StoreError &error) mutable {
        rows.insert(fetched);
        if (error.isError()) {
            reportReadFailure(error);
            for (const QString &key : missing) {
                if (std::optional<Row> known = m_reader->lastRead(key); known && !rows.contains(key))
                    rows.insert(key, *known);
            }
        }
        // A row drafted or edited while the read was on its way is taken as it is now.
        for (const QString &key : keys) {
            if (const auto draft = m_drafts.constFind(key); draft != m_drafts.constEnd()) {
                rows.remove(key);
                if (draft->current)
                    rows.insert(key, *draft->current);
            }
        }
        then(rows);
    });
}

void DirectoryDocument::deleteRows(const QStringList &keys)
{
    withCurrentRows(keys, [this, keys](const QHash<QString, Row> &current) {
        QList<RowChangeCommand::Change> changes;
        for (const QString &key : keys) {
            const auto it = current.constFind(key);
            if (it != current.constEnd())
                changes.append({key, *it, std::nullopt});
        }
        if (changes.isEmpty())
            return;
        const QString text = changes.size() == 1 ? tr("Delete %1").arg(changes.first().key)
                                                 : tr("Delete %n rows", nullptr, int(changes.size()));
        m_undo->push(new RowChangeCommand(this, changes, text));
    });
}

void DirectoryDocument::setEnabled(const QStringList &keys, bool enabled)
{
    withCurrentRows(keys, [this, keys, enabled](const QHash<QString, Row> &current) {
        QList<RowChangeCommand::Change> changes;
        for (const QString &key : keys) {
            const auto it = current.constFind(key);
            if (it == current.constEnd() || it->enabled == enabled)
                continue;
            Row after = *it;
            after.enabled = enabled;
            changes.append({key, *it, after});
        }
        if (changes.isEmpty())
            return;
        const QString verb = enabled ? tr("Enable") : tr("Disable");
        const QString text = changes.size() == 1 ? QStringLiteral("%1 %2").arg(verb, changes.first().key)
                                                 : tr("%1 %n rows", nullptr, int(changes.size())).arg(verb);
        m_undo->push(new RowChangeCommand(this, changes, text));
    });
}

ChangeSet DirectoryDocument::pendingChanges() const
{
    ChangeSet changes;
    // Deletes first, so a key freed by one draft can be taken by another.
    // Each write names the updated_at the draft started from, so a row someone else changed
    // meanwhile is refused rather than overwritten.
    for (auto it = m_drafts.cbegin(); it != m_drafts.cend(); ++it) {
        if (!it->current && it->stored)
            changes.append(RowChange::remove(it.key(), it->stored->updatedAt));
    }
    for (auto it = m_drafts.cbegin(); it != m_drafts.cend(); ++it) {
        if (!it->current)
            continue;
        const auto restore = m_restores.constFind(it.key());
        if (!it->stored)
            changes.append(RowChange::create(*it->current));
        else if (restore != m_restores.cend() && sameContent(restore->row, it->current))
            changes.append(RowChange::restore(*it->current, it->stored->updatedAt, restore->versionSeq));
        else
            changes.append(RowChange::replace(*it->current, it->stored->updatedAt));
    }
    return changes;
}

bool DirectoryDocument::isSaving() const
{
    return m_writer && m_writer->isWriting();
}

void DirectoryDocument::cancelSave()
{
    if (m_writer)
        m_writer->cancel();
}

StoreError DirectoryDocument::save()
{
    if (m_drafts.isEmpty())
        return StoreError::none();
    if (isSaving())
        return StoreError::make(StoreError::Kind::Conflict, tr("a save is already running"));
    if (m_writer) {
        const QMap<QString, Draft> sent = m_drafts;
        for (auto it = sent.cbegin(); it != sent.cend(); ++it)
            m_saving.insert(it.key());
        m_writer->write(pendingChanges(), [this, sent](const StoreWriter::Result &result) {
            finishRemoteSave(sent, result.error, result.written);
        });
        for (const QString &key : m_saving)
            emit rowChanged(key);
        return StoreError::none();
    }
    const StoreError error = m_store->apply(pendingChanges());
    if (error.isError()) {
        emit saveFailed(error);
        return error;
    }
    finishLocalSave();
    return StoreError::none();
}

void DirectoryDocument::finishLocalSave()
{
    const QStringList keys = m_drafts.keys();
    m_drafts.clear();
    m_restores.clear();
    QList<DirectoryTableModel::Update> updates;
    for (const QString &key : keys) {
        const std::optional<Row> saved = storedRow(key);
        updates.append(tableUpdate(key, saved, false));
    }
    m_table->apply(updates);
    for (const QString &key : keys)
        emit rowChanged(key);
    m_undo->setClean();
    emit modifiedChanged(false);
    emit saved();
}

// Each written row becomes the stored version of its key. A draft edited further while
// its save was on its way stays a draft, now of the version written; a draft left as it
// was sent is saved. Unwritten drafts stay as they are.
void DirectoryDocument::finishRemoteSave(const QMap<QString, Draft> &sent, const StoreError &error,
                                         const QList<WriteOutcome> &written)
{
    const QSet<QString> saving = std::exchange(m_saving, {});
    QList<DirectoryTableModel::Update> updates;
    for (const WriteOutcome &outcome : written) {
        const auto was = sent.constFind(outcome.key);
        if (was == sent.constEnd())
            continue;
        std::optional<Row> stored = was->current;
        if (stored) {
            stored->updatedAt = outcome.updatedAt;
            if (outcome.created)
                stored->createdAt = outcome.updatedAt;
            m_reader->remember(*stored);
        } else {
            m_reader->forget(outcome.key);
        }
        m_restores.remove(outcome.key);
        const auto draft = m_drafts.find(outcome.key);
        bool modified = false;
        std::optional<Row> shown = stored;
        if (draft != m_drafts.end()) {
            if (sameContent(draft->current, stored)) {
                m_drafts.erase(draft);
            } else {
                draft->stored = stored;
                modified = true;
                shown = draft->current;
            }
        } else if (!sameContent(was->stored, stored)) {
            // Undone back to the old row while its save was on its way: that is now an
            // edit of the version written.
            m_drafts.insert(outcome.key, {stored, was->stored});
            modified = true;
            shown = was->stored;
        }
        updates.append(tableUpdate(outcome.key, shown, modified));
    }
    m_table->apply(updates);
    for (const QString &key : saving)
        emit rowChanged(key);
    emit modifiedChanged(isModified());
    if (error.isError()) {
        emit saveFailed(error);
        return;
    }
    if (!isModified())
        m_undo->setClean();
    emit saved();
}

QList<SaveDraft> DirectoryDocument::saveDrafts() const
{
    QList<SaveDraft> drafts;
    for (const QString &key : modifiedKeys())
        drafts.append({key, baseRow(key), row(key)});
    return drafts;
}

std::optional<Row> DirectoryDocument::baseRow(const QString &key) const
{
    const auto draft = m_drafts.constFind(key);
    if (draft != m_drafts.constEnd())
        return draft->stored;
    return storedRow(key);
}

void DirectoryDocument::rebase(const Row &stored)
{
    const auto draft = m_drafts.find(stored.key);
    if (draft == m_drafts.end())
        return;
    draft->stored = stored;
    if (m_reader)
        m_reader->remember(stored);
    const std::optional<Row> current = draft->current;
    const bool modified = !sameContent(stored, current);
    if (!modified)
        m_drafts.erase(draft);
    m_table->apply({tableUpdate(stored.key, modified ? current : std::optional<Row>(stored), modified)});
    emit rowChanged(stored.key);
    if (!isModified())
        emit modifiedChanged(false);
}

void DirectoryDocument::revert()
{
    QList<RowChangeCommand::Change> changes;
    for (auto it = m_drafts.cbegin(); it != m_drafts.cend(); ++it)
        changes.append({it.key(), it->current, it->stored});
    if (changes.isEmpty())
        return;
    // Revert is itself undoable: discarded edits can be brought back.
    m_undo->push(new RowChangeCommand(this, changes, tr("Revert unsaved changes")));
}

void DirectoryDocument::applyDrafts(const QList<DraftState> &states)
{
    const bool wasModified = isModified();
    QStringList undrafted;
    for (const DraftState &change : states) {
        if (!m_drafts.contains(change.key))
            undrafted.append(change.key);
    }
    const QHash<QString, Row> storedNow = storedRows(undrafted);
    QList<DirectoryTableModel::Update> updates;
    updates.reserve(states.size());
    for (const DraftState &change : states) {
        const auto existing = m_drafts.constFind(change.key);
        std::optional<Row> stored;
        if (existing != m_drafts.constEnd())
            stored = existing->stored;
        else if (const auto it = storedNow.constFind(change.key); it != storedNow.constEnd())
            stored = *it;
        const bool modified = !sameContent(stored, change.state);
        if (modified)
            m_drafts.insert(change.key, {stored, change.state});
        else
            m_drafts.remove(change.key);

        updates.append(tableUpdate(change.key, modified ? change.state : stored, modified));
    }
    m_table->apply(updates);
    for (const DraftState &change : states)
        emit rowChanged(change.key);
    if (wasModified != isModified())
        emit modifiedChanged(isModified());
}
