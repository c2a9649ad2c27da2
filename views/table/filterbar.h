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

    // Applies the bar's current text and type to the new document's table.
    void setDocument(DirectoryDocument *document);
    void focusSearch();

    QLineEdit *searchEdit() const { return m_search; }
    QComboBox *typeCombo() const { return m_type; }
    QCheckBox *nonCompliantCheck() const { return m_nonCompliant; }
    bool isSearchingContent() const;

private:
    void applyFilter();
    void showBusy(bool busy);

    QPointer<DirectoryDocument> m_document;
    QLineEdit *m_search;
    QComboBox *m_type;
    QCheckBox *m_nonCompliant;
    QLabel *m_busy;
};
