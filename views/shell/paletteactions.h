#pragma once

#include <QObject>

class CommandPalette;
class DirectoryDocument;
class QAction;
class QMenuBar;
class QWidget;

// View › Command Palette (Ctrl+Shift+P, commands only, as in VS Code) and View › Go to
// Row or Command (Ctrl+K, rows and commands alike), over one CommandPalette.
class PaletteActions final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(PaletteActions)

public:
    PaletteActions(QMenuBar *menus, QWidget *window);

    CommandPalette *palette() const { return m_palette; }
    QList<QAction *> actions() const { return {m_commands, m_goTo}; }
    void setDocument(DirectoryDocument *document);

signals:
    void rowChosen(const QString &key);

private:
    CommandPalette *m_palette;
    QAction *m_commands;
    QAction *m_goTo;
};
