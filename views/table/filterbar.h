#pragma once

#include <QPointer>
#include <QWidget>

class DirectoryDocument;
class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;

// The search box and type filter above the table. Key, target and category filter as
// each character is typed; content is searched in the background (debounced) and its
// matches join the shown rows when they arrive, with a "searching content…" note meanwhile.
// A check box narrows the table to the rows the last lint found non-compliant.
class FilterBar final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(FilterBar)

public:
    explicit FilterBar(QWidget *parent = nullptr);

    // Starts the new document unfiltered.
    void setDocument(DirectoryDocument *document);
    void focusSearch();
    // Back to every row: no text, all types, compliant or not.
    void reset();
    // Whether anything narrows the table now.
    bool isFiltering() const;

    QLineEdit *searchEdit() const { return m_search; }
    QComboBox *typeCombo() const { return m_type; }
    QCheckBox *nonCompliantCheck() const { return m_nonCompliant; }
    bool isSearchingContent() const;

signals:
    // Down or Return in the search field: the rows are where the user goes next.
    void moveIntoResults();

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void applyFilter();
    void showBusy(bool busy);

    QPointer<DirectoryDocument> m_document;
    QLineEdit *m_search;
    QComboBox *m_type;
    QCheckBox *m_nonCompliant;
    QLabel *m_busy;
};
