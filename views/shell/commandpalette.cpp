#include "views/shell/commandpalette.h"

#include "models/directorydocument.h"
#include "models/directorytablemodel.h"
#include "models/fuzzymatch.h"
#include "models/summarytable.h"

#include <QAction>
#include <QCoreApplication>
#include <QKeyEvent>
#include <QLineEdit>
#include <QListWidget>
#include <QMenuBar>
#include <QSignalBlocker>
#include <QVBoxLayout>

#include <algorithm>

namespace {

enum Role { ActionRole = Qt::UserRole + 1, KeyRole };

struct Ranked
{
    int score;
    QString text;
    QString detail;
    QAction *action;
    QString key;
};

} // namespace

CommandPalette::CommandPalette(QMenuBar *menus, QWidget *window)
    : QFrame(window, Qt::Popup), m_menus(menus), m_query(new QLineEdit(this)),
      m_results(new QListWidget(this))
{
    setObjectName(QStringLiteral("commandPalette"));
    setFrameShape(QFrame::StyledPanel);
    m_query->setObjectName(QStringLiteral("paletteQuery"));
    m_query->setPlaceholderText(tr("Type a command, or a row's key to go to it (> for commands only)"));
    m_query->setClearButtonEnabled(true);
    m_query->installEventFilter(this);
    m_results->setObjectName(QStringLiteral("paletteResults"));
    m_results->setUniformItemSizes(true);
    m_results->setFocusPolicy(Qt::NoFocus);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addWidget(m_query);
    layout->addWidget(m_results);
    connect(m_query, &QLineEdit::textChanged, this, &CommandPalette::refill);
    // A click runs the entry; Return is the query field's (eventFilter). itemActivated too
    // would run it twice where a click also activates.
    connect(m_results, &QListWidget::itemClicked, this, &CommandPalette::activate);
}

void CommandPalette::setDocument(DirectoryDocument *document)
{
    m_document = document;
}

void CommandPalette::open(const QString &query)
{
    m_commands = MenuCommands::of(m_menus, MenuCommands::Which::EnabledOnly);
    QWidget *window = parentWidget();
    const int width = std::clamp(window->width() / 2, std::min(480, window->width()), 760);
    const int height = std::min(420, window->height() * 2 / 3);
    resize(width, height);
    move(window->mapToGlobal(QPoint((window->width() - width) / 2, window->height() / 12)));
    {
        const QSignalBlocker typing(m_query);
        m_query->setText(query);
    }
    refill(query);
    show();
    raise();
    activateWindow();
    m_query->setFocus(Qt::PopupFocusReason);
}

void CommandPalette::refill(const QString &typed)
{
    const bool commandsOnly = typed.startsWith(u'>');
    const QString query = (commandsOnly ? typed.mid(1) : typed).trimmed();
    QList<Ranked> ranked;
    for (const MenuCommand &command : std::as_const(m_commands)) {
        const int score = FuzzyMatch::score(query, command.path);
        if (score != FuzzyMatch::noMatch)
            ranked.append({score,
                           command.path,
                           command.action->shortcut().toString(QKeySequence::NativeText),
                           command.action,
                           {}});
    }
    // Every row, the ones the filters hide too (going to one lifts them); with nothing
    // typed the list would be the whole directory.
    const SummaryTable *rows = m_document ? &m_document->tableModel()->summaries() : nullptr;
    if (rows && !commandsOnly && !query.isEmpty()) {
        for (int i = 0, n = rows->size(); i < n; ++i) {
            const QString key = rows->key(i);
            const int score = FuzzyMatch::score(query, key);
            if (score != FuzzyMatch::noMatch)
                ranked.append({score, key, tr("go to row"), nullptr, key});
        }
    }
    const auto end = ranked.size() > maxResults ? ranked.begin() + maxResults : ranked.end();
    // Nothing typed: the commands in menu order, as the menus list them.
    if (!query.isEmpty())
        std::partial_sort(ranked.begin(), end, ranked.end(), [](const Ranked &a, const Ranked &b) {
            if (a.score != b.score)
                return a.score > b.score;
            return a.text.size() != b.text.size() ? a.text.size() < b.text.size() : a.text < b.text;
        });
    ranked.erase(end, ranked.end());

    m_results->clear();
    for (const Ranked &entry : std::as_const(ranked)) {
        auto *item = new QListWidgetItem(
            entry.detail.isEmpty() ? entry.text : entry.text + QStringLiteral("    ") + entry.detail,
            m_results);
        item->setData(ActionRole, QVariant::fromValue(static_cast<QObject *>(entry.action)));
        item->setData(KeyRole, entry.key);
        item->setToolTip(entry.action ? entry.action->statusTip() : QString());
    }
    m_results->setCurrentRow(0);
}

void CommandPalette::activate(QListWidgetItem *item)
{
    if (!item)
        return;
    auto *action = qobject_cast<QAction *>(item->data(ActionRole).value<QObject *>());
    const QString key = item->data(KeyRole).toString();
    hide();
    if (action)
        action->trigger();
    else if (!key.isEmpty())
        emit rowChosen(key);
}

bool CommandPalette::eventFilter(QObject *watched, QEvent *event)
{
    if (watched != m_query || event->type() != QEvent::KeyPress)
        return QFrame::eventFilter(watched, event);
    const auto *key = static_cast<QKeyEvent *>(event);
    switch (key->key()) {
    case Qt::Key_Down:
    case Qt::Key_Up:
    case Qt::Key_PageDown:
    case Qt::Key_PageUp:
        QCoreApplication::sendEvent(m_results, event);
        return true;
    case Qt::Key_Return:
    case Qt::Key_Enter:
        activate(m_results->currentItem());
        return true;
    case Qt::Key_Escape:
        hide();
        return true;
    default:
        return QFrame::eventFilter(watched, event);
    }
}
