#include "models/directorydocument.h"
#include "tests/views/viewtestsupport.h"
#include "views/flows/flowvisualizerview.h"

#include <QGraphicsSimpleTextItem>
#include <QSignalSpy>
#include <QWheelEvent>

using namespace Qt::StringLiterals;

namespace {

const QString blooioFinish =
    u"# Phase C of the inbound turn: given the full agent output text in $1, extract the\n"
    u"#   LAST [REPLY], send via blooio to $2, return the send result.\n"
    u"# $1=agent output text. $2=recipient phone.\n"
    u"LAST_REPLY_OF: $1\n"
    u"> SEND_BY_CHANNEL: blooio|$2|$PREV"_s;

QStringList sceneTexts(const QGraphicsScene *scene)
{
    QStringList texts;
    const QList<QGraphicsItem *> items = scene->items();
    for (const QGraphicsItem *item : items) {
        if (const auto *text = dynamic_cast<const QGraphicsSimpleTextItem *>(item))
            texts.append(text->text());
    }
    return texts;
}

} // namespace

// The flow graph over a real directory document: layout of steps, lanes and bindings,
// broken and nested nodes, live redraws on edits, parse errors, clicks. Saves PNGs of
// what it draws when CAPDESK_SHOTS names a folder.
class TestFlowVisualizerView : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void cleanup();
    void drawsTheArticlesFlow();
    void fanOutBranchesAreLanesSideBySide();
    void bindingsAreWrittenOnTheEdges();
    void unknownKeysAreBrokenNodes();
    void editingTheRowRedrawsLive();
    void parseErrorShowsLineAndColumnOverTheLastGraph();
    void clickingANodeActivatesItsKey();
    void nestedFlowsExpandInPlace();
    void aRowThatIsNotAFlowIsNotParsed();
    void followsThePausedStepZoomsAndFits();

private:
    void shoot(const QString &name);

    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<DirectoryDocument> m_document;
    std::unique_ptr<FlowVisualizerView> m_view;
};

void TestFlowVisualizerView::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    const QString fn = u"fn"_s;
    auto store = openStoreWithRows(
        m_dir->filePath(u"d.db"_s),
        {makeRow(u"LAST_REPLY_OF"_s, fn, u"last_reply_of"_s, {}),
         makeRow(u"SEND_BY_CHANNEL"_s, u"http"_s, u"POST https://example.com/send/$1"_s, {}, u"$2+"_s),
         makeRow(u"BLOOIO_FINISH"_s, u"flow"_s, {}, {}, blooioFinish),
         makeRow(u"SHOUT"_s, fn, u"upper"_s, {}), makeRow(u"ECHO"_s, fn, u"echo"_s, {}),
         makeRow(u"FANOUT"_s, u"flow"_s, {}, {},
                 u"SHOUT: $1 => LOUD\n> { ECHO: a|b => A | SHOUT: $LOUD }\n=> BOTH\n> ECHO"_s),
         makeRow(u"OUTER"_s, u"flow"_s, {}, {}, u"ECHO > BLOOIO_FINISH > LOOP"_s),
         makeRow(u"LOOP"_s, u"flow"_s, {}, {}, u"OUTER"_s)});
    QVERIFY(store);
    m_document = std::make_unique<DirectoryDocument>(store);
    QVERIFY(!m_document->load().isError());
    m_view = std::make_unique<FlowVisualizerView>();
    m_view->setDocument(m_document.get());
    m_view->resize(760, 640);
    m_view->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_view.get()));
}

void TestFlowVisualizerView::cleanup()
{
    m_view.reset();
    m_document.reset();
    m_dir.reset();
}

void TestFlowVisualizerView::shoot(const QString &name)
{
    const QString folder = qEnvironmentVariable("CAPDESK_SHOTS");
    if (!folder.isEmpty())
        m_view->grab().save(folder + u'/' + name + u".png"_s);
}

void TestFlowVisualizerView::aRowThatIsNotAFlowIsNotParsed()
{
    m_view->showRow(u"BLOOIO_FINISH"_s);
    QCOMPARE(m_view->nodes().size(), 2);
    m_view->showRow(u"LAST_REPLY_OF"_s);
    QVERIFY(!m_view->parseError());
    QVERIFY(m_view->nodes().isEmpty());
}

// A flow taller than the view: the paused step is scrolled into view, Ctrl+wheel zooms
// within its limits, and Ctrl+0 fits the whole flow.
void TestFlowVisualizerView::followsThePausedStepZoomsAndFits()
{
    QStringList steps;
    for (int i = 0; i < 14; ++i)
        steps << u"SHOUT: step %1"_s.arg(i + 1);
    m_view->setFlowText(steps.join(u" > "_s));
    QCOMPARE(m_view->nodes().size(), 14);
    auto inView = [this](const QRectF &scene) {
        return m_view->viewport()->rect().contains(m_view->mapFromScene(scene).boundingRect());
    };
    QVERIFY(!inView(m_view->node(13, 0)->sceneBoundingRect()));
    m_view->setCurrentStep(13);
    QVERIFY(inView(m_view->node(13, 0)->sceneBoundingRect()));

    auto wheel = [this](int delta) {
        QWheelEvent event(QPointF(100, 100), m_view->viewport()->mapToGlobal(QPointF(100, 100)), QPoint(),
                          QPoint(0, delta), Qt::NoButton, Qt::ControlModifier, Qt::NoScrollPhase, false);
        QApplication::sendEvent(m_view->viewport(), &event);
    };
    wheel(120);
    QVERIFY(qAbs(m_view->zoom() - 1.15) < 0.01);
    for (int i = 0; i < 30; ++i)
        wheel(120);
    QCOMPARE(m_view->zoom(), FlowVisualizerView::maxZoom);

    m_view->setFocus();
    QTest::keyClick(m_view.get(), Qt::Key_0, Qt::ControlModifier);
    QVERIFY(m_view->zoom() <= 1.0);
    QVERIFY(inView(m_view->scene()->itemsBoundingRect()));
}

void TestFlowVisualizerView::drawsTheArticlesFlow()
{
    m_view->showRow(u"BLOOIO_FINISH"_s);
    QVERIFY(!m_view->parseError());
    QCOMPARE(m_view->nodes().size(), 2);
    const FlowNodeItem *first = m_view->node(0, 0);
    const FlowNodeItem *second = m_view->node(1, 0);
    QCOMPARE(first->content().key, u"LAST_REPLY_OF"_s);
    QCOMPARE(first->content().body, u"$1"_s);
    QCOMPARE(second->content().key, u"SEND_BY_CHANNEL"_s);
    QCOMPARE(second->content().body, u"blooio|$2|$PREV"_s);
    QVERIFY(!first->content().icon.isNull() && !second->content().icon.isNull());
    QVERIFY(!first->content().broken && !second->content().broken);
    QVERIFY(second->pos().y() > first->pos().y() + first->size().height());
    QVERIFY(sceneTexts(m_view->scene()).contains(u"start: $PREV = body"_s));
    shoot(u"flow-visualizer-blooio"_s);
}

void TestFlowVisualizerView::fanOutBranchesAreLanesSideBySide()
{
    m_view->showRow(u"FANOUT"_s);
    const FlowNodeItem *a = m_view->node(1, 0);
    const FlowNodeItem *b = m_view->node(1, 1);
    QVERIFY(a && b);
    QCOMPARE(a->pos().y(), b->pos().y());
    QVERIFY(b->pos().x() >= a->pos().x() + a->size().width());
    QVERIFY(m_view->node(2, 0)->pos().y()
            > qMax(a->pos().y() + a->size().height(), b->pos().y() + b->size().height()));
    shoot(u"flow-visualizer-fanout"_s);
}

void TestFlowVisualizerView::bindingsAreWrittenOnTheEdges()
{
    m_view->showRow(u"FANOUT"_s);
    const QStringList texts = sceneTexts(m_view->scene());
    QVERIFY(texts.contains(u"=> LOUD"_s));
    QVERIFY(texts.contains(u"=> A"_s));
    QVERIFY(texts.contains(u"=> BOTH"_s));
}

void TestFlowVisualizerView::unknownKeysAreBrokenNodes()
{
    m_view->setFlowText(u"SHOUT > NO_SUCH_ROW: x"_s);
    QVERIFY(!m_view->node(0, 0)->content().broken);
    QVERIFY(m_view->node(1, 0)->content().broken);
}

void TestFlowVisualizerView::editingTheRowRedrawsLive()
{
    m_view->showRow(u"BLOOIO_FINISH"_s);
    m_document->setField(u"BLOOIO_FINISH"_s, u"content"_s, blooioFinish + u"\n> SHOUT"_s);
    QTRY_COMPARE(m_view->nodes().size(), 3);
    QCOMPARE(m_view->node(2, 0)->content().key, u"SHOUT"_s);
    // A row the flow names changes type: its node follows.
    m_document->setField(u"SHOUT"_s, u"type"_s, u"flow"_s);
    QTRY_VERIFY(m_view->node(2, 0)->content().expandable);
}

void TestFlowVisualizerView::parseErrorShowsLineAndColumnOverTheLastGraph()
{
    m_view->showRow(u"BLOOIO_FINISH"_s);
    m_document->setField(u"BLOOIO_FINISH"_s, u"content"_s, blooioFinish + u"\n> { SHOUT: x"_s);
    QTRY_VERIFY(m_view->parseError().has_value());
    QCOMPARE(m_view->parseError()->position.line, 6);
    QCOMPARE(m_view->parseError()->position.column, 3);
    QCOMPARE(m_view->parseError()->reason, u"unclosed '{'"_s);
    QCOMPARE(m_view->nodes().size(), 2); // the last graph that parsed, dimmed
    QVERIFY(m_view->node(0, 0)->opacity() < 1.0);
    const QStringList texts = sceneTexts(m_view->scene());
    QVERIFY(texts.contains(u"Parse error at line 6, column 3: unclosed '{'"_s));
    QVERIFY(texts.contains(u"> { SHOUT: x\n  ^"_s));
    shoot(u"flow-visualizer-parse-error"_s);
}

void TestFlowVisualizerView::clickingANodeActivatesItsKey()
{
    m_view->showRow(u"BLOOIO_FINISH"_s);
    QSignalSpy keys(m_view.get(), &FlowVisualizerView::keyActivated);
    QSignalSpy steps(m_view.get(), &FlowVisualizerView::stepActivated);
    const FlowNodeItem *second = m_view->node(1, 0);
    m_view->ensureVisible(second->sceneBoundingRect());
    QTest::mouseClick(m_view->viewport(), Qt::LeftButton, {},
                      m_view->mapFromScene(second->sceneBoundingRect().center() + QPointF(0, 6)));
    QCOMPARE(keys.size(), 1);
    QCOMPARE(keys.first().first().toString(), u"SEND_BY_CHANNEL"_s);
    QCOMPARE(steps.first().first().toInt(), 1);
}

void TestFlowVisualizerView::nestedFlowsExpandInPlace()
{
    m_view->showRow(u"OUTER"_s);
    FlowNodeItem *nested = m_view->node(1, 0);
    QVERIFY(nested->content().expandable);
    QVERIFY(!m_view->node(0, 0)->content().expandable);
    m_view->ensureVisible(nested->sceneBoundingRect());
    const QPointF expander = nested->mapToScene(QPointF(nested->size().width() - 16, 16));
    QTest::mouseClick(m_view->viewport(), Qt::LeftButton, {}, m_view->mapFromScene(expander));
    QVERIFY(m_view->node(u"1.0/0.0"_s));
    QCOMPARE(m_view->node(u"1.0/1.0"_s)->content().key, u"SEND_BY_CHANNEL"_s);
    // LOOP names OUTER, which is being drawn: expanding it would never end.
    m_view->setExpanded(u"2.0"_s, true);
    QVERIFY(m_view->node(u"2.0/0.0"_s));
    QVERIFY(!m_view->node(u"2.0/0.0"_s)->content().expandable);

    QSignalSpy keys(m_view.get(), &FlowVisualizerView::keyActivated);
    QSignalSpy steps(m_view.get(), &FlowVisualizerView::stepActivated);
    const FlowNodeItem *inner = m_view->node(u"1.0/0.0"_s);
    m_view->ensureVisible(inner->sceneBoundingRect());
    QTest::mouseClick(m_view->viewport(), Qt::LeftButton, {},
                      m_view->mapFromScene(inner->sceneBoundingRect().center() + QPointF(0, 6)));
    QCOMPARE(keys.first().first().toString(), u"LAST_REPLY_OF"_s);
    QVERIFY(steps.isEmpty());
    shoot(u"flow-visualizer-nested"_s);
}

QTEST_MAIN(TestFlowVisualizerView)
#include "tst_flowvisualizerview.moc"
