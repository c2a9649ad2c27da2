#include "views/shell/shortcutsdialog.h"

#include "views/shell/menucommands.h"

#include <QAction>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLineEdit>
#include <QTreeWidget>
#include <QVBoxLayout>

ShortcutsDialog::ShortcutsDialog(const QMenuBar *menus, QWidget *parent)
    : QDialog(parent), m_list(new QTreeWidget(this))
{
    setObjectName(QStringLiteral("shortcutsDialog"));
    setWindowTitle(tr("Keyboard Shortcuts"));
    auto *search = new QLineEdit(this);
    search->setPlaceholderText(tr("Filter commands and keys"));
    search->setClearButtonEnabled(true);
    m_list->setObjectName(QStringLiteral("shortcutList"));
    m_list->setHeaderLabels({tr("Command"), tr("Keys")});
    m_list->setRootIsDecorated(false);
    m_list->setAlternatingRowColors(true);
    m_list->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_list->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    m_list->header()->setStretchLastSection(false);

    for (const MenuCommand &command : MenuCommands::of(menus, MenuCommands::Which::All)) {
        QStringList keys;
        for (const QKeySequence &sequence : command.action->shortcuts())
            keys << sequence.toString(QKeySequence::NativeText);
        new QTreeWidgetItem(m_list, {command.path, keys.join(QStringLiteral(", "))});
    }
    const QList<QPair<QString, QString>> others{
        {tr("Filter › Move into the rows"), tr("Down, Return")},
        {tr("Command palette › Choose"), tr("Up, Down")},
        {tr("Command palette › Run or go to row"), tr("Return")},
        {tr("Dialogs and the palette › Close"), tr("Esc")},
    };
    for (const auto &[command, keys] : others)
        new QTreeWidgetItem(m_list, {command, keys});

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(search);
    layout->addWidget(m_list, 1);
    layout->addWidget(buttons);
    connect(search, &QLineEdit::textChanged, this, &ShortcutsDialog::filter);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    resize(620, 560);
}

QString ShortcutsDialog::keysOf(const QString &command) const
{
    const QList<QTreeWidgetItem *> found = m_list->findItems(command, Qt::MatchExactly, 0);
    return found.isEmpty() ? QString() : found.first()->text(1);
}

void ShortcutsDialog::filter(const QString &text)
{
    for (int i = 0; i < m_list->topLevelItemCount(); ++i) {
        QTreeWidgetItem *item = m_list->topLevelItem(i);
        item->setHidden(!item->text(0).contains(text, Qt::CaseInsensitive)
                        && !item->text(1).contains(text, Qt::CaseInsensitive));
    }
}
