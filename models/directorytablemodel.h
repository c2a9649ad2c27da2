#pragma once

#include "models/directoryfilter.h"
#include "models/summarytable.h"

#include <QAbstractTableModel>
#include <QFutureWatcher>
#include <QIcon>

#include <functional>
#include <memory>
#include <optional>
#include <vector>

// The directory as a table: every row's summary, shown through the current filter and
// sort order. Filtering and sorting work on index vectors over SummaryTable, never on
// QVariants, which is what keeps a keystroke over 100,000 rows inside one frame.
class DirectoryTableModel final : public QAbstractTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(DirectoryTableModel)

public:
    // The lint column comes last so the older columns keep their numbers (saved header
    // states, the CLI's column order); the view shows it first.
    enum Column {
        KeyColumn,
        TypeColumn,
        CategoryColumn,
        TargetColumn,
        EnabledColumn,
        UpdatedColumn,
        LintColumn,
        ColumnCount
    };
    enum Role {
        KeyRole = Qt::UserRole + 1, // the row's key, whatever the column
        SortRole, // raw value the column sorts by
        ModifiedRole, // bool: unsaved edits
        TypeNameRole, // "fn", "http", …
        LintRole, // int(SummaryTable::Lint)
    };
    using Lint = SummaryTable::Lint;

    explicit DirectoryTableModel(QObject *parent = nullptr);
    ~DirectoryTableModel() override;

    // Replaces everything (a new file was opened, or a reload).
    StoreError load(const DirectoryStore &store);
    // Shows the first `firstPage` rows by key at once and loads the whole directory off
    // the GUI thread, swapping it in when complete (loadFinished). Filter, sort and the
    // selection carry over to the full table.
    StoreError loadProgressively(std::shared_ptr<const DirectoryStore> store, int firstPage = 256);
    bool isLoading() const { return m_loading; }
    void setTypeIcons(const QHash<QString, QIcon> &icons);
    void setLintIcons(const QIcon &warning, const QIcon &error);

    // Lint levels, one byte per row. setLintLevels() covers a whole lint-all: keys absent
    // from `levels` become `others`. Each costs one relayout only when the lint column is
    // the sort key or the non-compliant filter is on; otherwise just a repaint.
    void setLintLevels(const QHash<QString, Lint> &levels, Lint others);
    void setLintLevel(const QString &key, Lint level);
    Lint lintLevel(const QString &key) const;
    // Keeps rows in step with the document: insert or update, or remove. A batch costs
    // one re-sort and one layout change however many rows it holds.
    struct Update
    {
        RowSummary summary; // for an upsert
        bool modified = false;
        bool remove = false; // remove summary.key instead
    };
    void apply(const QList<Update> &updates);
    void upsert(const RowSummary &summary, bool modified);
    void remove(const QString &key);
    void setModified(const QString &key, bool modified);

    void setFilter(const DirectoryFilter &filter);
    const DirectoryFilter &filter() const { return m_filter; }
    // Keys whose content matched m_filter.text; ignored if the text has changed since.
    void setContentMatches(const QString &forText, const QStringList &keys);

    int totalRows() const { return m_table.size(); }
    const SummaryTable &summaries() const { return m_table; }
    QString keyAt(int row) const;
    int rowOfKey(const QString &key) const; // visible row, or -1
    // The summary the table holds for `key`, filtered out or not.
    std::optional<RowSummary> summary(const QString &key) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;

signals:
    // Visible and total row counts, after every change that can move them.
    void countsChanged(int visible, int total);
    // The set of categories or their counts changed.
    void categoriesChanged();
    // A progressive load completed; `error` is empty on success.
    void loadFinished(const QString &error);

private:
    struct Snapshot;
    static std::shared_ptr<Snapshot> readSnapshot(const DirectoryStore &store, int firstByKey);
    void install(Snapshot &&snapshot);
    void loadInBackground(std::shared_ptr<const DirectoryStore> store, int firstPage, quint64 generation);
    void receivePage(Snapshot &snapshot, bool complete);
    int indexOfKey(const QString &key) const; // into m_table, or -1
    void markContentHits();
    void applyOne(const Update &update, bool *categoriesMoved);
    void applyMany(const QList<Update> &updates);
    void rebuildOrder();
    bool lintShapesLayout() const;
    void repaintLintColumn();
    // Applies `change`, refilters and moves persistent indexes along with their rows.
    void relayout(const std::function<void()> &change);
    void refilter();
    bool lessThan(int a, int b) const;
    QVariant lintData(int i, int role) const;

    SummaryTable m_table;
    std::vector<int> m_byKey; // m_table indexes sorted by key, for lookups
    std::vector<int> m_order; // all m_table indexes in the current sort order
    std::vector<int> m_visible; // the filtered subsequence of m_order
    DirectoryFilter m_filter;
    std::string m_foldedText;
    QStringList m_contentMatches; // as received, to skip identical answers
    std::vector<char> m_contentHit; // per m_table index: content matched m_filter.text
    int m_sortColumn = KeyColumn;
    Qt::SortOrder m_sortOrder = Qt::AscendingOrder;
    QHash<QString, QIcon> m_typeIcons;
    QIcon m_lintIcons[2]; // warning, error
    bool m_loading = false;
    // Kept while a background load reads it, so it is released here, not by the worker.
    std::shared_ptr<const DirectoryStore> m_loadingStore;
    QFutureWatcher<std::shared_ptr<Snapshot>> *m_loadWatcher = nullptr;
    quint64 m_loadGeneration = 0;
};
