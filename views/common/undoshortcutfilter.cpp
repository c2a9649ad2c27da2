#include "views/common/undoshortcutfilter.h"

#include <QKeyEvent>
#include <QKeySequence>

UndoShortcutFilter::UndoShortcutFilter(QObject *parent) : QObject(parent) {}

bool UndoShortcutFilter::eventFilter(QObject *watched, QEvent *event)
{
    const QEvent::Type type = event->type();
    if (type == QEvent::ShortcutOverride || type == QEvent::KeyPress) {
        auto *key = static_cast<QKeyEvent *>(event);
        if (key->matches(QKeySequence::Undo) || key->matches(QKeySequence::Redo)) {
            // An override left unaccepted sends the keys on to the window's actions; the
            // key press itself only arrives when those are disabled, and then nothing
            // should happen rather than the widget's own undo.
            key->ignore();
            return true;
        }
    }
    return QObject::eventFilter(watched, event);
}
