#include "views/flows/flowvisualizerview.h"

#include "models/directorydocument.h"
#include "views/common/pendingrowtext.h"
#include "views/flows/flowscenebuilder.h"

#include <QFontDatabase>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>
#include <utility>

using namespace Qt::StringLiterals;

namespace {

constexpr qreal dimmedOpacity = 0.35;

QString pathOf(int step, int branch)
{
    return u"%1.%2"_s.arg(step).arg(branch);
}

FlowNodeItem *nodeAt(QGraphicsItem *item)
{
    for (; item; item = item->parentItem()) {
        if (auto *node = dynamic_cast<FlowNodeItem *>(item))
            return node;
    }
    return nullptr;
}

} // namespace

FlowVisualizerView::FlowVisualizerView(QWidget *parent)
    : QGraphicsView(parent), m_scene(new QGraphicsScene(this))
{
    setScene(m_scene);
    setRenderHint(QPainter::Antialiasing);
    setAlignment(Qt::AlignHCenter | Qt::AlignTop);
    setBackgroundBrush(Qt::white);
    m_redraw.setSingleShot(true);
    m_redraw.setInterval(0);
    connect(&m_redraw, &QTimer::timeout, this, [this] {
        reloadRow();
        parse();
        if (!drawLater())
            redraw();
    });
}

void FlowVisualizerView::setDocument(DirectoryDocument *document)
{
    if (m_document)
        disconnect(m_document, nullptr, this, nullptr);
    m_document = document;
    if (!document)
        return;
    connect(document, &DirectoryDocument::rowChanged, this, [this](const QString &key) {
        if (key == m_key || m_drawnKeys.contains(key))
            m_redraw.start();
    });
    connect(document, &DirectoryDocument::rowRenamed, this,
            [this](const QString &oldKey, const QString &newKey) {
                if (oldKey == m_key)
                    m_key = newKey;
            });
}

void FlowVisualizerView::showRow(const QString &key)
{
    if (key != m_key) {
        m_expanded.clear();
        m_plan = {};
        clearRunState();
    }
    m_key = key;
    reloadRow();
    parse();
    if (!drawLater())
        redraw();
}

bool FlowVisualizerView::drawLater()
{
    // A dock behind another tab stays isVisible(); what tells is that none of it is on screen.
    m_drawPending = m_document && m_document->store().hasRoundTrips() && visibleRegion().isEmpty();
    return m_drawPending;
}

void FlowVisualizerView::paintEvent(QPaintEvent *event)
{
    // Not while painting: the redraw changes the scene, which paints it again.
    if (std::exchange(m_drawPending, false))
        m_redraw.start();
    QGraphicsView::paintEvent(event);
}

void FlowVisualizerView::setFlowText(const QString &text)
{
    m_key.clear();
    m_notice.clear();
    m_text = text;
    parse();
    redraw();
}

void FlowVisualizerView::reloadRow()
{
    if (m_key.isEmpty() || !m_document)
        return;
    const std::optional<Row> row = m_document->row(m_key);
    m_text = row ? row->content : QString();
    m_notice = row && row->type != QLatin1String("flow")
                   ? tr("%1 is a %2 row; select a flow row to see its steps.").arg(m_key, row->type)
                   : QString();
    if (!row)
        m_notice = PendingRowText::of(m_document, m_key);
}

void FlowVisualizerView::parse()
{
    if (!m_notice.isEmpty()) {
        m_error.reset();
        m_plan = {};
        emit planChanged();
        return;
    }
    const FlowParseResult parsed = FlowParser::parse(m_text);
    m_error = parsed.error;
    if (parsed.ok())
        m_plan = parsed.plan;
    emit planChanged();
}

std::optional<Row> FlowVisualizerView::lookUp(const QString &key) const
{
    return m_document ? m_document->row(key) : std::nullopt;
}

void FlowVisualizerView::redraw()
{
    m_scene->clear();
    m_nodes.clear();
    if (!m_notice.isEmpty()) {
        m_drawnKeys.clear();
        m_scene->addSimpleText(m_notice)->setBrush(palette().color(QPalette::PlaceholderText));
        setSceneRect(m_scene->itemsBoundingRect().adjusted(-24, -16, 24, 16));
        return;
    }
    const qreal top = m_error ? drawParseError() + 24 : 0;
    const QList<QGraphicsItem *> errorItems = m_scene->items();
    FlowSceneBuilder::RowLookup rows;
    if (m_document)
        rows = [this](const QString &key) { return lookUp(key); };
    FlowSceneBuilder builder(*m_scene, rows, m_expanded);
    if (!m_plan.steps.isEmpty())
        m_nodes = builder.build(m_plan, m_key, top);
    m_drawnKeys = builder.keys();
    if (m_error) {
        const QList<QGraphicsItem *> items = m_scene->items();
        for (QGraphicsItem *item : items) {
            if (!item->parentItem() && !errorItems.contains(item))
                item->setOpacity(dimmedOpacity);
        }
    }
    applyMarks();
    setSceneRect(m_scene->itemsBoundingRect().adjusted(-24, -16, 24, 16));
}

// The reason, then the offending line with a caret under the column, as a compiler shows it.
qreal FlowVisualizerView::drawParseError()
{
    const FlowParseError &error = *m_error;
    auto *title = m_scene->addSimpleText(tr("Parse error at line %1, column %2: %3")
                                             .arg(error.position.line)
                                             .arg(error.position.column)
                                             .arg(error.reason));
    QFont bold = title->font();
    bold.setBold(true);
    title->setFont(bold);
    title->setBrush(QColor(0xb0, 0x10, 0x10));
    const QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    const QString line = m_text.split(u'\n').value(error.position.line - 1).replace(u'\t', u' ');
    auto *source =
        m_scene->addSimpleText(line + u'\n' + QString(error.position.column - 1, u' ') + u'^', mono);
    source->setPos(0, title->boundingRect().height() + 6);
    return source->pos().y() + source->boundingRect().height();
}

FlowNodeItem *FlowVisualizerView::node(int step, int branch) const
{
    return m_nodes.value(pathOf(step, branch));
}

void FlowVisualizerView::setExpanded(const QString &path, bool expanded)
{
    if (expanded)
        m_expanded.insert(path);
    else
        m_expanded.remove(path);
    redraw();
}

void FlowVisualizerView::setNodeState(int step, int branch, FlowNodeItem::State state, const QString &note)
{
    m_marks.insert(pathOf(step, branch), {state, note});
    if (FlowNodeItem *item = node(step, branch)) {
        item->setState(state);
        item->setNote(note);
    }
}

void FlowVisualizerView::setBreakpoints(const QSet<int> &steps)
{
    m_breakpoints = steps;
    applyMarks();
}

void FlowVisualizerView::setCurrentStep(int step)
{
    const bool moved = step != m_currentStep;
    m_currentStep = step;
    applyMarks();
    if (moved && step >= 0) {
        if (const FlowNodeItem *current = node(step, 0))
            ensureVisible(current->sceneBoundingRect(), 40, 40);
    }
}

void FlowVisualizerView::zoomBy(qreal factor)
{
    const qreal target = std::clamp(zoom() * factor, minZoom, maxZoom);
    setTransformationAnchor(QGraphicsView::AnchorUnderMouse);
    scale(target / zoom(), target / zoom());
}

void FlowVisualizerView::fitFlow()
{
    if (!scene() || scene()->itemsBoundingRect().isEmpty())
        return;
    fitInView(scene()->itemsBoundingRect().adjusted(-12, -12, 12, 12), Qt::KeepAspectRatio);
    // A small flow stays at its natural size rather than blown up.
    if (zoom() > 1.0)
        setTransform(QTransform());
    else if (zoom() < minZoom)
        setTransform(QTransform::fromScale(minZoom, minZoom));
}

void FlowVisualizerView::wheelEvent(QWheelEvent *event)
{
    if (!(event->modifiers() & Qt::ControlModifier)) {
        QGraphicsView::wheelEvent(event);
        return;
    }
    // Eighths of a degree, 120 a notch; a touchpad sends fractions of one.
    if (const int delta = event->angleDelta().y(); delta != 0)
        zoomBy(std::pow(1.15, delta / 120.0));
    event->accept();
}

void FlowVisualizerView::keyPressEvent(QKeyEvent *event)
{
    if (event->modifiers() & Qt::ControlModifier) {
        switch (event->key()) {
        case Qt::Key_0:
            fitFlow();
            return;
        case Qt::Key_Plus:
        case Qt::Key_Equal:
            zoomBy(1.25);
            return;
        case Qt::Key_Minus:
            zoomBy(0.8);
            return;
        default:
            break;
        }
    }
    QGraphicsView::keyPressEvent(event);
}

void FlowVisualizerView::clearRunState()
{
    m_marks.clear();
    m_currentStep = -1;
    applyMarks();
}

void FlowVisualizerView::applyMarks()
{
    for (auto it = m_nodes.cbegin(); it != m_nodes.cend(); ++it) {
        FlowNodeItem *item = it.value();
        const bool own = !it.key().contains(u'/');
        const Mark mark = own ? m_marks.value(it.key()) : Mark();
        item->setState(mark.state);
        item->setNote(mark.note);
        item->setBreakpoint(own && item->content().branch == 0
                            && m_breakpoints.contains(item->content().step));
        item->setCurrent(own && item->content().step == m_currentStep);
        item->setChosen(it.key() == m_chosenPath);
    }
}

void FlowVisualizerView::mousePressEvent(QMouseEvent *event)
{
    FlowNodeItem *item = nodeAt(itemAt(event->position().toPoint()));
    if (!item || event->button() != Qt::LeftButton)
        return QGraphicsView::mousePressEvent(event);
    const FlowNodeItem::Content content = item->content();
    if (item->isOnExpander(mapToScene(event->position().toPoint())))
        return setExpanded(content.path, !content.expanded);
    m_chosenPath = content.path;
    applyMarks();
    emit keyActivated(content.key);
    if (!content.path.contains(u'/'))
        emit stepActivated(content.step);
}
