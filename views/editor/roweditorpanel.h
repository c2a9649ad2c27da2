#pragma once

#include <QHash>
#include <QMap>
#include <QMultiHash>
#include <QPointer>
#include <QSet>
#include <QWidget>

#include <memory>

class ContractView;
class DirectoryDocument;
class LintController;
class JsonFieldEdit;
class NullableIntEdit;
class QCheckBox;
class QComboBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QScrollArea;
class QSpinBox;
class QSplitter;
class QStackedWidget;
class QTabWidget;
class QToolButton;
class RowFindingsView;
class DirectoryHistory;
class RowHistoryPanel;
class RowTitleBar;
class UndoShortcutFilter;
struct Row;

// Every column of one row, each with the widget its kind calls for. A user edit becomes
// DirectoryDocument::setField() (one undo command, merged while typing in one field).
// When the document changes the row underneath (undo, redo, save) the widgets are
// refreshed without echoing edits back, and text that did not change keeps its cursor.
// RowValidator's findings are shown beside the fields they concern as the row changes.
// The hygiene linter's findings (LintController) appear live too: a list under the form
// and a mark on each field they concern. A second tab shows the row's saved versions from
// the event log (RowHistoryPanel), a third its contract document (ContractView).
class RowEditorPanel final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RowEditorPanel)

public:
    // The content editor never shows fewer lines than this.
    static constexpr int minimumContentLines = 8;

    explicit RowEditorPanel(QWidget *parent = nullptr);

    void setDocument(DirectoryDocument *document);
    // The open directory's event log for the History tab; null where it keeps none.
    void setHistory(std::shared_ptr<const DirectoryHistory> history);
    // Whose findings the form shows; they follow its re-lints of the edited row.
    void setLintController(LintController *controller);
    QString key() const { return m_key; }
    RowTitleBar *titleBar() const { return m_title; }
    QScrollArea *formArea() const { return m_form; }
    void showRow(const QString &key);
    // Puts the cursor in the key field, selected: a new row's first edit is its name.
    void focusKey();
    // Applies what is typed but not yet committed (a new row's key is renamed on Return or
    // leaving the field); called before a save so the save includes it.
    void commitPendingEdits();
    // Shows the Row tab with the cursor in the widget of `field` (a column name): where a
    // lint finding sends the user.
    void focusField(const QString &field);
    // Columns the open directory cannot change (a server's `runner` and `sensitive`), each
    // with the reason, shown as a note under the form and as the field's tooltip.
    void setReadOnlyColumns(const QMap<QString, QString> &reasons);
    bool isColumnReadOnly(const QString &column) const { return m_readOnly.contains(column); }

    // The History tab, reloaded by the panel itself after every save of its document.
    RowHistoryPanel *historyPanel() const { return m_history; }
    ContractView *contractView() const { return m_contract; }
    RowFindingsView *findingsView() const { return m_findings; }

    QByteArray saveLayout() const;
    void restoreLayout(const QByteArray &state);

signals:
    // The panel followed its row to another key by itself: a rename, or undoing one.
    void shownKeyChanged(const QString &key);

private:
    QWidget *buildForm();
    QWidget *buildContent();
    QLineEdit *addLine(QFormLayout *form, const QString &label, const QString &column);
    QCheckBox *addCheck(const QString &text, const QString &column);
    QLabel *addProblemLabel(QFormLayout *form);

    void refresh(bool anotherRow);
    // History's "Restore this version": the draft stays on the History tab, whose diff and
    // note show what changed, until the user turns back to the Row tab.
    void restoreVersion(const Row &version, qint64 versionSeq);
    void showFields(const Row &row, bool anotherRow);
    void showHeader(const Row &row);
    // The row is still on its way from a server (or could not be read): its summary,
    // greyed, until it arrives.
    void showPending();
    void showProblems(const Row &row);
    void showFindings();
    QWidget *fieldWidget(const QString &field) const;
    void markFields(QFormLayout *form);
    void edit(const QString &column, const QVariant &value);
    QVariant textValue(const QString &column, const QString &text) const;
    void checkTypedKey(const QString &text);
    void commitKey();
    void followRowChange(const QString &key);
    void followRename(const QString &oldKey, const QString &newKey);

    QPointer<DirectoryDocument> m_document;
    QPointer<LintController> m_lint;
    QString m_key;
    // Keys linked by renames, both ways, so undoing a rename can bring the editor along.
    QMultiHash<QString, QString> m_renamePartners;
    // Text columns that were NULL when the row was shown: emptying one restores NULL
    // rather than leaving an empty string that would count as a change.
    QSet<QString> m_nullColumns;
    QMap<QString, QString> m_readOnly;
    QHash<QString, QString> m_defaultToolTips;
    bool m_refreshing = false;
    bool m_showingPending = false;
    bool m_contentCrLf = false; // content stored with "\r\n" line ends

    UndoShortcutFilter *m_undoFilter;
    QStackedWidget *m_pages;
    QTabWidget *m_tabs;
    RowHistoryPanel *m_history;
    ContractView *m_contract;
    RowFindingsView *m_findings;
    QToolButton *m_findingsToggle; // "▾ 3 lint findings": folds the list away, the marks stay
    RowTitleBar *m_title;
    QScrollArea *m_form;
    QSplitter *m_splitter;
    QLineEdit *m_keyEdit;
    QLabel *m_keyProblem;
    QComboBox *m_type;
    QLabel *m_typeProblem;
    QHash<QString, QLineEdit *> m_lines;
    QHash<QString, QCheckBox *> m_checks;
    NullableIntEdit *m_seq;
    QSpinBox *m_plannerRank;
    JsonFieldEdit *m_inputSchema;
    JsonFieldEdit *m_examples;
    QPlainTextEdit *m_content;
    QLabel *m_readOnlyNote;
    QLabel *m_updatedAt;
    QLabel *m_createdAt;
};
