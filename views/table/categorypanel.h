#pragma once

#include <QPointer>
#include <QWidget>

class DirectoryDocument;
class QListView;

// The category list beside the table, with row counts. Choosing an entry narrows the
// table to that category ("All categories" lifts it, "(no category)" shows rows without).
// The choice survives the list being recounted after every edit.
class CategoryPanel final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(CategoryPanel)

public:
    explicit CategoryPanel(QWidget *parent = nullptr);

    // A new directory starts on "All categories".
    void setDocument(DirectoryDocument *document);
    // Back to "All categories".
    void showAll();
    bool isFiltering() const { return !m_anyCategory; }
    QListView *listView() const { return m_list; }

private:
    void applySelection();
    void restoreSelection();

    QPointer<DirectoryDocument> m_document;
    QListView *m_list;
    bool m_anyCategory = true;
    QString m_category;
    bool m_restoring = false;
};
