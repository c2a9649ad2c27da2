#pragma once

#include "dispatch/flows/flowparser.h"
#include "dispatch/row/row.h"
#include "views/flows/flownodeitem.h"

#include <QGraphicsView>
#include <QHash>
#include <QPointer>
#include <QSet>
#include <QTimer>

#include <optional>

class DirectoryDocument;
class QGraphicsScene;

// The flow of one row as a graph (FlowSceneBuilder): redrawn when the row's text (or a
// row it names) is edited, with a parse error shown at its line and column over the last
// graph that parsed. Clicking a node activates its key; clicking its +/− box expands a
// nested flow in place. The debugger paints run state onto the nodes; the marks survive
// redraws. The paused step is kept in view, and the graph zooms (Ctrl+wheel) and fits
// (Ctrl+0).
class FlowVisualizerView final : public QGraphicsView
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(FlowVisualizerView)

public:
    explicit FlowVisualizerView(QWidget *parent = nullptr);

    // Rows for icons, broken (unknown) keys and expansion, and the edits to follow.
    void setDocument(DirectoryDocument *document);
    // Draws the row's content as the document has it now, drafts included, and follows it.
    void showRow(const QString &key);
    // Draws this text and follows no row.
    void setFlowText(const QString &text);

    QString key() const { return m_key; }
    QString flowText() const { return m_text; }
    // The plan drawn: the text's, or the last one that parsed while it does not.
    const FlowPlan &plan() const { return m_plan; }
    const std::optional<FlowParseError> &parseError() const { return m_error; }

    // "step.branch" for the flow's own nodes, "step.branch/step.branch" inside an expanded one.
    FlowNodeItem *node(const QString &path) const { return m_nodes.value(path); }
    FlowNodeItem *node(int step, int branch) const;
    QList<FlowNodeItem *> nodes() const { return m_nodes.values(); }
    void setExpanded(const QString &path, bool expanded);

    // The debugger's marks on the flow's own nodes.
    void setNodeState(int step, int branch, FlowNodeItem::State state, const QString &note = {});
    void setBreakpoints(const QSet<int> &steps);
    // -1: none. The paused step is scrolled into view as the run moves on.
    void setCurrentStep(int step);
    void clearRunState();

    // Ctrl+wheel and Ctrl+plus/minus zoom, between minZoom and maxZoom; Ctrl+0 fits the
    // whole flow in the view (never larger than 1:1).
    static constexpr qreal minZoom = 0.2;
    static constexpr qreal maxZoom = 4.0;
    qreal zoom() const { return transform().m11(); }
    void zoomBy(qreal factor);
    void fitFlow();

signals:
    void keyActivated(const QString &key);
    void stepActivated(int step); // a node of the flow's own step `step` was clicked
    // plan() was read again: another row, or the row's text arrived or changed.
    void planChanged();

protected:
    void mousePressEvent(QMouseEvent *event) override;
    void paintEvent(QPaintEvent *event) override;
    void wheelEvent(QWheelEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;

private:
    // Drawing looks up every step's row; from a server each is a request, so a view no
    // one sees (its dock hidden or behind another tab) draws when it is first painted.
    bool drawLater();
    struct Mark
    {
        FlowNodeItem::State state = FlowNodeItem::State::Idle;
        QString note;
    };

    void reloadRow();
    void parse();
    void redraw();
    qreal drawParseError();
    void applyMarks();
    std::optional<Row> lookUp(const QString &key) const;

    QGraphicsScene *m_scene;
    QPointer<DirectoryDocument> m_document;
    QString m_key;
    bool m_drawPending = false;
    QString m_text;
    QString m_notice; // why nothing is drawn: the row is not a flow
    FlowPlan m_plan;
    std::optional<FlowParseError> m_error;
    QSet<QString> m_expanded;
    QSet<QString> m_drawnKeys;
    QHash<QString, FlowNodeItem *> m_nodes;
    QHash<QString, Mark> m_marks; // by "step.branch"
    QSet<int> m_breakpoints;
    int m_currentStep = -1;
    QString m_chosenPath;
    QTimer m_redraw; // coalesces the edits of one batch into one redraw
};
