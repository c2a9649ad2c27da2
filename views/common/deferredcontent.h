#pragma once

#include <QWidget>

class QDockWidget;
class QVBoxLayout;

// Holds a panel that no one sees yet (a dock behind another tab, an editor tab not
// chosen) out of every layout until this holder is first seen. Qt sizes the hidden pages
// of a tab stack and the docks of a tabbed dock area on every layout pass, and a panel of
// word-wrapped labels lays its text out each time: kept out, those passes cost nothing
// before the window's first frame. The panel is built and wired as usual; only its placing
// waits.
//
// Seen means shown and within its window: a tabbed dock area keeps the docks behind its
// current tab shown, moved off the window, and tells of a tab change only through
// QDockWidget::visibilityChanged: a holder inside a dock is told to followDock().
class DeferredContent final : public QWidget
{
    Q_OBJECT

public:
    // Takes `content` as its child.
    explicit DeferredContent(QWidget *content, QWidget *parent = nullptr);

    bool isPlaced() const { return m_placed; }
    // Checks again each time `dock`'s tab is chosen.
    void followDock(QDockWidget *dock);

protected:
    void showEvent(QShowEvent *event) override;

private:
    void placeWhenSeen();
    bool isSeen() const;
    void placeIfSeen();

    QWidget *m_content;
    QVBoxLayout *m_layout;
    bool m_placed = false;
    bool m_checking = false;
};
