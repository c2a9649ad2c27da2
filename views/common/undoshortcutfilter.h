#pragma once

#include <QObject>

// Text widgets keep a private undo history and claim Ctrl+Z / Ctrl+Shift+Z for it, which
// would bypass the document's undo stack and desynchronise the editor from the table.
// Installed on such a widget, this filter keeps those keys from it so the window's Undo
// and Redo actions receive them.
class UndoShortcutFilter final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(UndoShortcutFilter)

public:
    explicit UndoShortcutFilter(QObject *parent = nullptr);

    // Installs the filter on `widget`; returns it for chaining.
    template<typename Widget>
    Widget *watch(Widget *widget)
    {
        widget->installEventFilter(this);
        return widget;
    }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;
};
