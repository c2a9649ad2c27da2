#include "dispatch/invoke/directoryledger.h"
#include "dispatch/invoke/standarddispatcher.h"
#include "models/callhistorymodel.h"
#include "models/directorydocument.h"
#include "tests/views/viewtestsupport.h"
#include "views/common/worldeffectgate.h"
#include "views/invoke/invocationresultview.h"
#include "views/invoke/invokepanel.h"

#include <QElapsedTimer>
#include <QHttpServer>
#include <QHttpServerResponse>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QTableView>

using namespace Qt::StringLiterals;

// The invoke panel against the real dispatcher: fn rows through the real FnRunner, a
// cancellable sleep, and one http call to a local QHttpServer answering JSON.
class TestInvokePanel : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();

    void invokeShowsOutputAndRecordsHistory();
    void reopeningAHistoryEntryShowsIt();
    void cancelEndsASleepWithinASecond();
    void httpJsonOutputIsPrettyPrinted();
    void aRowThatChangesTheWorldAsksFirst_data();
    void aRowThatChangesTheWorldAsksFirst();
    void prettyOutput_data();
    void prettyOutput();
    void theResultNamesItsRowAndTime();
    void emptyDeclaredArgumentsAreNamedBeforeTheCall_data();
    void emptyDeclaredArgumentsAreNamedBeforeTheCall();
    void eachDirectoryKeepsItsOwnHistory();

private:
    QPushButton *button(const char *name) const
    {
        return m_panel->findChild<QPushButton *>(QLatin1String(name));
    }
    void invokeAndWait()
    {
        const int before = m_panel->history()->rowCount();
        QTest::mouseClick(button("invokeButton"), Qt::LeftButton);
        QTRY_COMPARE(m_panel->history()->rowCount(), before + 1);
    }

    QHttpServer m_server;
    quint16 m_port = 0;
    int m_deletes = 0; // DELETE requests the upstream received
    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<DirectoryDocument> m_document;
    std::unique_ptr<StandardDispatcher> m_dispatcher;
    std::unique_ptr<InvokePanel> m_panel;
};

void TestInvokePanel::initTestCase()
{
    m_server.route(QStringLiteral("/v1/things"), [] {
        return QHttpServerResponse(QByteArrayLiteral("application/json"),
                                   QByteArrayLiteral(R"({"items":[1,2],"ok":true})"));
    });
    m_server.route(QStringLiteral("/v1/things/1"), QHttpServerRequest::Method::Delete, [this] {
        ++m_deletes;
        return QHttpServerResponse(QByteArrayLiteral("application/json"), QByteArrayLiteral(R"({"gone":1})"));
    });
    m_port = m_server.listen(QHostAddress::LocalHost, 0);
    QVERIFY(m_port != 0);
}

void TestInvokePanel::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    const QList<Row> rows{
        makeRow(QStringLiteral("SHOUT"), QStringLiteral("fn"), QStringLiteral("upper"), QString(),
                QStringLiteral("# ARGS: $1=text\n")),
        makeRow(QStringLiteral("WAIT"), QStringLiteral("fn"), QStringLiteral("sleep_ms"), QString(),
                QStringLiteral("# ARGS: $1=milliseconds\n")),
        makeRow(QStringLiteral("POINT"), QStringLiteral("fn"), QStringLiteral("echo"), QString(),
                QStringLiteral("# ARGS: $1=latitude | $2=longitude\n")),
        makeRow(QStringLiteral("THINGS"), QStringLiteral("http"),
                QStringLiteral("GET http://127.0.0.1:%1/v1/things").arg(m_port), QString()),
        makeRow(QStringLiteral("THING_DELETE"), QStringLiteral("http"),
                QStringLiteral("DELETE http://127.0.0.1:%1/v1/things/1").arg(m_port), QString()),
    };
    auto store = openStoreWithRows(m_dir->filePath(QStringLiteral("d.db")), rows);
    QVERIFY(store);
    m_dispatcher = std::make_unique<StandardDispatcher>(
        store, std::make_shared<DirectoryLedger>(store, DirectoryLedger::KeyPlacement::FileOnly));
    m_document = std::make_unique<DirectoryDocument>(store);
    QVERIFY(!m_document->load().isError());
    m_panel = std::make_unique<InvokePanel>(*m_dispatcher);
    m_panel->setDocument(m_document.get(), m_dir->filePath(QStringLiteral("d.db")));
    m_panel->resize(700, 500);
    m_panel->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_panel.get()));
}

void TestInvokePanel::cleanup()
{
    m_panel.reset();
    m_document.reset();
    m_dispatcher.reset();
    m_dir.reset();
}

void TestInvokePanel::invokeShowsOutputAndRecordsHistory()
{
    m_panel->showRow(QStringLiteral("SHOUT"));
    m_panel->setBody(QStringLiteral("hello"));
    invokeAndWait();
    QCOMPARE(m_panel->resultView()->outputText(), QStringLiteral("HELLO"));
    QVERIFY(m_panel->resultView()->statusText().contains(QStringLiteral("ok")));
    const CallHistoryModel::Entry *entry = m_panel->history()->entryAt(0);
    QVERIFY(entry);
    QCOMPARE(entry->key, QStringLiteral("SHOUT"));
    QCOMPARE(entry->body, QStringLiteral("hello"));
    QVERIFY(entry->ok());
    QCOMPARE(entry->response.value(QStringLiteral("result")).toString(), QStringLiteral("HELLO"));
    QVERIFY(!m_panel->isBusy());
}

void TestInvokePanel::reopeningAHistoryEntryShowsIt()
{
    m_panel->showRow(QStringLiteral("SHOUT"));
    m_panel->setBody(QStringLiteral("first"));
    invokeAndWait();
    m_panel->setBody(QStringLiteral("second"));
    invokeAndWait();
    QCOMPARE(m_panel->resultView()->outputText(), QStringLiteral("SECOND"));

    auto *view = m_panel->findChild<QTableView *>(QStringLiteral("invocationHistory"));
    QVERIFY(view);
    const QModelIndex older = m_panel->history()->index(1, CallHistoryModel::KeyColumn);
    view->scrollTo(older);
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, view->visualRect(older).center());
    QCOMPARE(m_panel->resultView()->outputText(), QStringLiteral("FIRST"));
}

void TestInvokePanel::cancelEndsASleepWithinASecond()
{
    m_panel->showRow(QStringLiteral("WAIT"));
    m_panel->setBody(QStringLiteral("5000"));
    QTest::mouseClick(button("invokeButton"), Qt::LeftButton);
    QVERIFY(m_panel->isBusy());
    QVERIFY(m_panel->findChild<QProgressBar *>(QStringLiteral("invokeBusy"))->isVisible());
    QPushButton *cancel = button("cancelButton");
    QVERIFY(cancel->isVisible() && cancel->isEnabled());
    QVERIFY(!button("invokeButton")->isEnabled());
    QTest::qWait(100);

    QElapsedTimer timer;
    timer.start();
    QTest::mouseClick(cancel, Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(!m_panel->isBusy(), 1000);
    QVERIFY(timer.elapsed() < 1000);
    QCOMPARE(m_panel->resultView()->outputText(), QStringLiteral("ERR: cancelled"));
    QVERIFY(m_panel->resultView()->statusText().contains(QStringLiteral("ERR")));
    QVERIFY(!cancel->isVisible());
    QVERIFY(button("invokeButton")->isEnabled());
}

void TestInvokePanel::httpJsonOutputIsPrettyPrinted()
{
    m_panel->showRow(QStringLiteral("THINGS"));
    invokeAndWait();
    QCOMPARE(m_panel->resultView()->outputText(),
             QStringLiteral("HTTP 200:\n{\n    \"items\": [\n        1,\n        2\n"
                            "    ],\n    \"ok\": true\n}"));
    QVERIFY(m_panel->resultView()->statusText().contains(QStringLiteral("HTTP 200")));
}

void TestInvokePanel::prettyOutput_data()
{
    QTest::addColumn<QString>("output");
    QTest::addColumn<QString>("expected");
    QTest::addRow("plain text") << QStringLiteral("HELLO") << QStringLiteral("HELLO");
    QTest::addRow("json") << QStringLiteral("{\"a\":1}") << QStringLiteral("{\n    \"a\": 1\n}");
    QTest::addRow("http text body") << QStringLiteral("HTTP 200:ok") << QStringLiteral("HTTP 200:ok");
    QTest::addRow("http error json") << QStringLiteral("ERR: HTTP 404:[1]")
                                     << QStringLiteral("ERR: HTTP 404:\n[\n    1\n]");
    QTest::addRow("colon in json kept") << QStringLiteral("HTTP 201:{\"u\":\"a:b\"}")
                                        << QStringLiteral("HTTP 201:\n{\n    \"u\": \"a:b\"\n}");
}

void TestInvokePanel::prettyOutput()
{
    QFETCH(QString, output);
    QFETCH(QString, expected);
    QCOMPARE(InvocationResultView::prettyOutput(output), expected);
}

void TestInvokePanel::aRowThatChangesTheWorldAsksFirst_data()
{
    QTest::addColumn<bool>("answer");
    QTest::addColumn<bool>("stopAsking");
    QTest::addColumn<int>("questions"); // over two clicks of Invoke
    QTest::addColumn<int>("deletes");

    QTest::addRow("cancelled: nothing sent") << false << false << 2 << 0;
    QTest::addRow("confirmed: asked each time") << true << false << 2 << 2;
    QTest::addRow("confirmed, stop asking for the row") << true << true << 1 << 2;
}

void TestInvokePanel::aRowThatChangesTheWorldAsksFirst()
{
    QFETCH(bool, answer);
    QFETCH(bool, stopAsking);
    QFETCH(int, questions);
    QFETCH(int, deletes);
    FakePrompter prompter;
    prompter.worldEffectsAnswer = answer;
    prompter.worldEffectsStopAsking = stopAsking;
    WorldEffectGate gate(prompter);
    m_panel->setWorldEffectGate(&gate);
    m_deletes = 0;

    m_panel->showRow(QStringLiteral("SHOUT"));
    m_panel->setBody(QStringLiteral("quiet"));
    invokeAndWait(); // a row that changes nothing is never asked about
    QVERIFY(prompter.worldEffectsQuestions.isEmpty());

    m_panel->showRow(QStringLiteral("THING_DELETE"));
    for (int click = 0; click < 2; ++click) {
        const int before = m_panel->history()->rowCount();
        QTest::mouseClick(button("invokeButton"), Qt::LeftButton);
        if (answer)
            QTRY_COMPARE(m_panel->history()->rowCount(), before + 1);
        else
            QVERIFY(!m_panel->isBusy());
    }
    QCOMPARE(prompter.worldEffectsQuestions.size(), questions);
    QCOMPARE(
        prompter.worldEffectsQuestions.first(),
        (QStringList{QStringLiteral("THING_DELETE"),
                     QStringLiteral("THING_DELETE: DELETE http://127.0.0.1:%1/v1/things/1").arg(m_port)}));
    QCOMPARE(m_deletes, deletes);
    // Counted at the panel's history too: a refused call leaves no entry.
    QCOMPARE(m_panel->history()->rowCount(), 1 + deletes);
    m_panel->setWorldEffectGate(nullptr);
}

// The result says whose it is and when; after another row is selected it says so, and
// opening the directory again clears it (the rows may be another directory's).
void TestInvokePanel::theResultNamesItsRowAndTime()
{
    QCOMPARE(m_panel->resultCaption(), QString());
    m_panel->showRow(QStringLiteral("SHOUT"));
    m_panel->setBody(QStringLiteral("hello"));
    invokeAndWait();
    static const QRegularExpression caption(QStringLiteral(R"(^Last result: SHOUT \((\d\d:\d\d)\)$)"));
    const QRegularExpressionMatch shown = caption.match(m_panel->resultCaption());
    QVERIFY2(shown.hasMatch(), qPrintable(m_panel->resultCaption()));
    const QString when = shown.captured(1);
    QCOMPARE(when, m_panel->history()->entryAt(0)->time.toLocalTime().time().toString(u"HH:mm"_s));

    m_panel->showRow(QStringLiteral("WAIT"));
    QCOMPARE(m_panel->resultCaption(), QStringLiteral("Last result: SHOUT (%1), not WAIT").arg(when));
    QCOMPARE(m_panel->resultView()->outputText(), QStringLiteral("HELLO"));

    m_panel->setDocument(m_document.get(), m_dir->filePath(QStringLiteral("d.db")));
    QCOMPARE(m_panel->resultCaption(), QString());
    QCOMPARE(m_panel->resultView()->outputText(), QString());
}

void TestInvokePanel::emptyDeclaredArgumentsAreNamedBeforeTheCall_data()
{
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("body");
    QTest::addColumn<QString>("warning");

    QTest::addRow("none given") << u"POINT"_s << u""_s
                                << u"No value for latitude, longitude: the call runs with them empty."_s;
    QTest::addRow("one missing") << u"POINT"_s << u"37.7"_s
                                 << u"No value for longitude: the call runs with it empty."_s;
    QTest::addRow("all given") << u"POINT"_s << u"37.7|-122.4"_s << u""_s;
    QTest::addRow("nothing declared") << u"THINGS"_s << u""_s << u""_s;
}

// A warning, not a block: the call still runs and is recorded.
void TestInvokePanel::emptyDeclaredArgumentsAreNamedBeforeTheCall()
{
    QFETCH(QString, key);
    QFETCH(QString, body);
    QFETCH(QString, warning);
    m_panel->showRow(key);
    m_panel->setBody(body);
    QCOMPARE(m_panel->missingArgumentsWarning(), warning);
    if (key == QStringLiteral("POINT")) {
        invokeAndWait();
        QCOMPARE(m_panel->history()->entryAt(0)->body, body);
    }
}

// Invoke histories are per directory: another directory starts with its own (empty)
// history, and coming back brings the first one back.
void TestInvokePanel::eachDirectoryKeepsItsOwnHistory()
{
    m_panel->showRow(QStringLiteral("SHOUT"));
    m_panel->setBody(QStringLiteral("here"));
    invokeAndWait();
    QCOMPARE(m_panel->history()->rowCount(), 1);

    const QString here = m_dir->filePath(QStringLiteral("d.db"));
    const QString elsewhere = QStringLiteral("http://127.0.0.1:1/elsewhere");
    m_panel->setDocument(m_document.get(), elsewhere);
    QCOMPARE(m_panel->history()->rowCount(), 0);
    m_panel->showRow(QStringLiteral("SHOUT"));
    m_panel->setBody(QStringLiteral("there"));
    invokeAndWait();

    m_panel->setDocument(m_document.get(), here);
    QCOMPARE(m_panel->history()->rowCount(), 1);
    QCOMPARE(m_panel->history()->entryAt(0)->body, QStringLiteral("here"));
    m_panel->setDocument(m_document.get(), elsewhere);
    QCOMPARE(m_panel->history()->rowCount(), 1);
    QCOMPARE(m_panel->history()->entryAt(0)->body, QStringLiteral("there"));
}

QTEST_MAIN(TestInvokePanel)
#include "tst_invokepanel.moc"
