#pragma once

#include "views/shell/menucommands.h"

#include <QFrame>
#include <QPointer>

class DirectoryDocument;
class QAction;
class QLineEdit;
class QListWidget;
class QListWidgetItem;
class QMenuBar;

// The command palette (Ctrl+K, or Ctrl+Shift+P for commands only), as in VS Code: one line
// to type in over every enabled menu command, shortcuts shown, and every row of the open
// directory ("go to row"), ranked by FuzzyMatch. A leading '>' keeps to commands. Up and
// Down choose, Return runs the command or shows the row, Escape closes.
class CommandPalette final : public QFrame
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(CommandPalette)

public:
    static constexpr int maxResults = 60;

    // Floats over `window`, at the top of it.
    explicit CommandPalette(QMenuBar *menus, QWidget *window);

    void setDocument(DirectoryDocument *document);
    // Opens with `query` typed (">" for commands only).
    void open(const QString &query = {});

    QLineEdit *queryEdit() const { return m_query; }
    QListWidget *results() const { return m_results; }

signals:
    void rowChosen(const QString &key);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void refill(const QString &query);
    void activate(QListWidgetItem *item);

    QMenuBar *m_menus;
    QPointer<DirectoryDocument> m_document;
    QList<MenuCommand> m_commands; // read when the palette opens, so enabled states are current
    QLineEdit *m_query;
    QListWidget *m_results;
};
