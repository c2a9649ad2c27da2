#pragma once

#include <QPointer>
#include <QWidget>

class DirectoryDocument;
class QComboBox;
class QLabel;
class QLineEdit;

// The search box and type filter above the table. Key, target and category filter as
// each character is typed; content is searched in the background (debounced) and its
// matches join the shown rows when they arrive, with a "searching content…" note meanwhile.
class FilterBar final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(FilterBar)

public:
    explicit FilterBar(QWidget *parent = nullptr);

    // Applies the bar's current text and type to the new document's table.
    void setDocument(DirectoryDocument *document);
    void focusSearch();

    QLineEdit *searchEdit() const { return m_search; }
    QComboBox *typeCombo() const { return m_type; }
    bool isSearchingContent() const;

private:
    void applyFilter();
    void showBusy(bool busy);

    QPointer<DirectoryDocument> m_document;
    QLineEdit *m_search;
    QComboBox *m_type;
    QLabel *m_busy;
};
