#pragma once

#include <QGraphicsItem>
#include <QIcon>
#include <QString>
#include <QStringList>

// One call of a flow drawn as a box: type icon and key on top, the body as written below,
// an expander when the key names a flow row, and the debugger's marks (state colour,
// breakpoint dot, a note such as the duration). An expanded node is a frame holding the
// nested flow's nodes as child items.
class FlowNodeItem final : public QGraphicsItem
{
public:
    enum class State { Idle, Pending, Running, Done, Failed };

    struct Content
    {
        QString path; // "step.branch", nested ones "outer/step.branch"
        int step = 0;
        int branch = 0;
        QString key;
        QString body;
        QIcon icon;
        bool broken = false; // the key names no row
        bool expandable = false; // the key names a flow row
        bool expanded = false;
    };

    explicit FlowNodeItem(Content content, QGraphicsItem *parent = nullptr);

    QRectF boundingRect() const override;
    void paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *widget) override;

    // Where an expanded node's nested graph goes, in item coordinates.
    QPointF nestedOrigin() const;
    void setNestedSize(const QSizeF &size);
    bool isOnExpander(const QPointF &scenePos) const;

    const Content &content() const { return m_content; }
    QSizeF size() const { return m_size; }
    State state() const { return m_state; }
    QString note() const { return m_note; }
    bool hasBreakpoint() const { return m_breakpoint; }
    void setState(State state);
    void setNote(const QString &note);
    void setBreakpoint(bool on);
    void setCurrent(bool current);
    void setChosen(bool chosen);

private:
    QRectF expanderRect() const;

    Content m_content;
    QStringList m_bodyLines; // elided to the node's width
    QSizeF m_size;
    qreal m_headerHeight = 0;
    State m_state = State::Idle;
    QString m_note;
    bool m_breakpoint = false;
    bool m_current = false;
    bool m_chosen = false;
};
