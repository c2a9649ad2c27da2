#include "dispatch/store/sqldirectorystore.h"
#include "models/contentsearch.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

// ContentSearch over a real SQLite directory: the answer arrives as one signal for the
// text asked, busyChanged brackets the work, and an answer nobody is waiting for any
// more is never delivered.
class TestContentSearch : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void findsTheRightKeys_data();
    void findsTheRightKeys();
    void busyBracketsTheSearch();
    void supersededRequestNeverAnswers();
    void staleAnswerIsDropped();
    void emptyTextAnswersAtOnce();
    void emptyTextCancelsAPendingRequest();
    void destroyedMidSearchReleasesTheStore();

private:
    QTemporaryDir m_dir;
    std::shared_ptr<SqlDirectoryStore> m_store;
};

namespace {

QStringList sorted(QStringList list)
{
    list.sort();
    return list;
}

} // namespace

void TestContentSearch::initTestCase()
{
    QVERIFY(m_dir.isValid());
    auto opened = SqlDirectoryStore::open(m_dir.filePath(QStringLiteral("search.db")));
    QVERIFY2(opened.ok(), qPrintable(opened.error().message));
    m_store = opened.value();

    const QList<QPair<QString, QString>> rows{
        {QStringLiteral("NOW"), QStringLiteral("# The current time\n[]")},
        {QStringLiteral("ECHO"), QStringLiteral("# WHAT: echo the body back\n[\"$1\"]")},
        {QStringLiteral("WEATHER"), QStringLiteral("# WHAT: Weather in Zürich\n{\"city\":\"$1\"}")},
        {QStringLiteral("PERCENT"), QStringLiteral("# WHAT: 100% sure\n[]")},
        {QStringLiteral("UNDERSCORE"), QStringLiteral("# WHAT: snake_case names\n[]")},
        {QStringLiteral("NO_CONTENT"), QString()},
    };
    for (const auto &[key, content] : rows) {
        Row row;
        row.key = key;
        row.type = QStringLiteral("fn");
        row.target = QStringLiteral("echo");
        row.content = content;
        // Imported: the search must find rows of any quality, and imports are not gated.
        const StoreError written = m_store->importRows({row});
        QVERIFY2(!written.isError(), qPrintable(written.message));
    }
}

void TestContentSearch::findsTheRightKeys_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QStringList>("keys");

    QTest::addRow("one row") << QStringLiteral("current time") << QStringList{QStringLiteral("NOW")};
    QTest::addRow("ASCII case-insensitive")
        << QStringLiteral("CURRENT") << QStringList{QStringLiteral("NOW")};
    QTest::addRow("several rows") << QStringLiteral("# what:")
                                  << QStringList{QStringLiteral("ECHO"), QStringLiteral("PERCENT"),
                                                 QStringLiteral("UNDERSCORE"), QStringLiteral("WEATHER")};
    QTest::addRow("payload text") << QStringLiteral("[\"$1\"]") << QStringList{QStringLiteral("ECHO")};
    QTest::addRow("payload text, two rows")
        << QStringLiteral("\"$1\"") << QStringList{QStringLiteral("ECHO"), QStringLiteral("WEATHER")};
    QTest::addRow("non-ASCII") << QStringLiteral("Zürich") << QStringList{QStringLiteral("WEATHER")};
    QTest::addRow("percent is literal") << QStringLiteral("0%") << QStringList{QStringLiteral("PERCENT")};
    QTest::addRow("underscore is literal")
        << QStringLiteral("e_c") << QStringList{QStringLiteral("UNDERSCORE")};
    QTest::addRow("keys are not content") << QStringLiteral("NO_CONTENT") << QStringList();
    QTest::addRow("no match") << QStringLiteral("xyzzy") << QStringList();
}

void TestContentSearch::findsTheRightKeys()
{
    QFETCH(QString, text);
    QFETCH(QStringList, keys);

    ContentSearch search(m_store);
    QSignalSpy finished(&search, &ContentSearch::finished);
    search.request(text, 0);
    QVERIFY(finished.wait(5000));
    QCOMPARE(finished.size(), 1);
    QCOMPARE(finished.at(0).at(0).toString(), text);
    QCOMPARE(sorted(finished.at(0).at(1).toStringList()), keys);
    // The debounce: a search asked for with a delay answers the same, later.
    search.request(text, 30);
    QVERIFY(finished.wait(5000));
    QCOMPARE(finished.size(), 2);
    QCOMPARE(sorted(finished.at(1).at(1).toStringList()), keys);
}

void TestContentSearch::busyBracketsTheSearch()
{
    ContentSearch search(m_store);
    QSignalSpy busy(&search, &ContentSearch::busyChanged);
    QSignalSpy finished(&search, &ContentSearch::finished);
    QVERIFY(!search.isBusy());

    search.request(QStringLiteral("time"), 20);
    QVERIFY(search.isBusy()); // waiting out the debounce counts as busy
    QVERIFY(finished.wait(5000));
    QCOMPARE(busy.size(), 2);
    QCOMPARE(busy.at(0).at(0).toBool(), true);
    QCOMPARE(busy.at(1).at(0).toBool(), false);
    QVERIFY(!search.isBusy());
    QCOMPARE(finished.at(0).at(1).toStringList(), QStringList{QStringLiteral("NOW")});
}

void TestContentSearch::supersededRequestNeverAnswers()
{
    ContentSearch search(m_store);
    QSignalSpy finished(&search, &ContentSearch::finished);
    QSignalSpy busy(&search, &ContentSearch::busyChanged);

    // Typing: each keystroke arrives before the previous one's debounce ran out.
    search.request(QStringLiteral("ech"), 50);
    search.request(QStringLiteral("echo"), 50);
    search.request(QStringLiteral("echo the"), 50);
    QVERIFY(finished.wait(5000));
    // Not busy means no debounce is armed and every search that started has reported back
    // (a search's answer is handled before it stops counting as running): no answer can
    // still come, so this is the end of them all.
    QTRY_VERIFY(!search.isBusy());
    QCOMPARE(finished.size(), 1);
    QCOMPARE(finished.at(0).at(0).toString(), QStringLiteral("echo the"));
    QCOMPARE(finished.at(0).at(1).toStringList(), QStringList{QStringLiteral("ECHO")});
    // Only one search ran.
    QCOMPARE(busy.size(), 2);
}

void TestContentSearch::staleAnswerIsDropped()
{
    ContentSearch search(m_store);
    QSignalSpy finished(&search, &ContentSearch::finished);

    // The moment the first search starts, the user types on: its answer must not arrive.
    bool retyped = false;
    connect(&search, &ContentSearch::busyChanged, this, [&](bool busy) {
        if (busy && !retyped) {
            retyped = true;
            search.request(QStringLiteral("Zürich"), 0);
        }
    });
    search.request(QStringLiteral("time"), 0);
    // Not busy: both searches have reported back, the stale one dropped (see
    // supersededRequestNeverAnswers), so nothing is left to arrive.
    QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty() && !search.isBusy(), 5000);
    QVERIFY(retyped);
    QCOMPARE(finished.size(), 1);
    QCOMPARE(finished.at(0).at(0).toString(), QStringLiteral("Zürich"));
    QCOMPARE(finished.at(0).at(1).toStringList(), QStringList{QStringLiteral("WEATHER")});
}

void TestContentSearch::emptyTextAnswersAtOnce()
{
    ContentSearch search(m_store);
    QSignalSpy finished(&search, &ContentSearch::finished);
    QSignalSpy busy(&search, &ContentSearch::busyChanged);
    search.request(QString(), 500);
    // Synchronously, before any event is processed.
    QCOMPARE(finished.size(), 1);
    QVERIFY(finished.at(0).at(0).toString().isEmpty());
    QVERIFY(finished.at(0).at(1).toStringList().isEmpty());
    QVERIFY(!search.isBusy());
    // Not busy: no debounce armed and no search running, the only sources of a later
    // answer; whatever was posted meanwhile runs here.
    QCoreApplication::processEvents();
    QCOMPARE(finished.size(), 1);
    QCOMPARE(busy.size(), 0);
}

void TestContentSearch::emptyTextCancelsAPendingRequest()
{
    ContentSearch search(m_store);
    QSignalSpy finished(&search, &ContentSearch::finished);
    search.request(QStringLiteral("time"), 30);
    search.request(QString(QLatin1String("")));
    QCOMPARE(finished.size(), 1);
    QVERIFY(!search.isBusy());
    // Not busy means the pending debounce was stopped, not left to run out, and no search
    // runs: nothing can answer later. Whatever was posted meanwhile runs here.
    QCoreApplication::processEvents();
    QCOMPARE(finished.size(), 1);
    QVERIFY(finished.at(0).at(1).toStringList().isEmpty());
}

void TestContentSearch::destroyedMidSearchReleasesTheStore()
{
    // The search is the store's last owner and goes away while its query runs: the
    // destructor waits for the worker, the store closes, and the file opens again.
    const QString path = m_dir.filePath(QStringLiteral("owned.db"));
    std::weak_ptr<SqlDirectoryStore> weak;
    {
        auto opened = SqlDirectoryStore::open(path);
        QVERIFY2(opened.ok(), qPrintable(opened.error().message));
        std::shared_ptr<SqlDirectoryStore> store = std::move(opened.value());
        weak = store;
        Row row;
        row.key = QStringLiteral("ONLY");
        row.type = QStringLiteral("fn");
        row.content = QStringLiteral("needle");
        QVERIFY(!store->importRows({row}).isError());
        auto *search = new ContentSearch(std::move(store));
        QCOMPARE(weak.use_count(), 1);
        bool started = false;
        connect(search, &ContentSearch::busyChanged, this,
                [&started](bool busy) { started = started || busy; });
        search->request(QStringLiteral("needle"), 0);
        QTRY_VERIFY(started);
        delete search; // the store goes with it, here on the GUI thread
        QVERIFY(weak.expired());
    }
    // The destructor waited for its worker, so no answer is left to come: the file opens
    // again at once.
    auto again = SqlDirectoryStore::open(path);
    QVERIFY2(again.ok(), qPrintable(again.error().message));
    const auto keys = again.value()->keysWithContent(QStringLiteral("NEEDLE"));
    QVERIFY(keys.ok());
    QCOMPARE(keys.value(), QStringList{QStringLiteral("ONLY")});
}

QTEST_GUILESS_MAIN(TestContentSearch)
#include "tst_contentsearch.moc"
