#pragma once

#include <QPointer>
#include <QTableView>

class DirectoryDocument;
class DirectoryTableModel;

// The directory table: sortable by any column, several rows selectable at once, and
// built for 100,000 rows — fixed row heights and column widths that never measure
// content, so the view never walks the whole model.
class DirectoryTableView final : public QTableView
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(DirectoryTableView)

public:
    explicit DirectoryTableView(QWidget *parent = nullptr);

    void setDocument(DirectoryDocument *document);

    QString currentKey() const;
    bool hasSelection() const;
    // Selected keys in table order.
    QStringList selectedKeys() const;
    // Makes `key` current and the only selection, scrolled into view; false when the
    // current filter hides it.
    bool selectKey(const QString &key);
    // Whether the directory has `key`, shown or filtered out.
    bool holdsKey(const QString &key) const;
    // Keyboard focus into the rows, on the current row or else the first one.
    void focusRows();

    // Column widths, order and sort, kept across files and sessions.
    QByteArray headerState() const;
    void restoreHeaderState(const QByteArray &state);

signals:
    void currentKeyChanged(const QString &key);
    // Cheap to emit: listeners ask hasSelection() or selectedKeys() when they need to,
    // rather than every click building a list of up to 100,000 keys.
    void selectedRowsChanged();

private:
    void setColumnWidths();

    QPointer<DirectoryTableModel> m_model;
    QByteArray m_headerState;
};
