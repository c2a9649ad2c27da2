#include "dispatch/store/sqldirectorystore.h"
#include "dispatch/tokens/capabilitytoken.h"
#include "dispatch/tokens/tokenscopecheck.h"

#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;

// Which of a token's keys and categories name nothing in the directory: the names the
// directory has (read from a real file), those a token lacks, and the sentence that says so.
class TestTokenScopeCheck final : public QObject
{
    Q_OBJECT

private slots:
    void knownNamesOfADirectory();
    void unknown_data();
    void unknown();
    void describe_data();
    void describe();
};

namespace {

Row row(const QString &key, const QString &category)
{
    Row made;
    made.key = key;
    made.type = u"fn"_s;
    made.target = u"echo"_s;
    made.category = category;
    made.updatedAt = u"2026-01-02T03:04:05.678Z"_s;
    return made;
}

const TokenScopeCheck::Names kKnown{{u"ECHO_BACK"_s, u"NOW"_s, u"WEATHER_NOW"_s}, {u"text"_s, u"time"_s}};

} // namespace

void TestTokenScopeCheck::knownNamesOfADirectory()
{
    QTemporaryDir dir;
    StoreResult<std::shared_ptr<SqlDirectoryStore>> store =
        SqlDirectoryStore::open(dir.filePath(u"scope.db"_s));
    QVERIFY(store.ok());
    QVERIFY(!store.value()
                 ->importRows({row(u"NOW"_s, u"time"_s), row(u"ECHO_BACK"_s, u"text"_s),
                               row(u"MORNING"_s, u"time"_s), row(u"TRIAGE"_s, QString())})
                 .isError());
    const StoreResult<TokenScopeCheck::Names> known = TokenScopeCheck::known(*store.value());
    QVERIFY(known.ok());
    QCOMPARE(known.value().keys, (QStringList{u"ECHO_BACK"_s, u"MORNING"_s, u"NOW"_s, u"TRIAGE"_s}));
    // Each once, and a row without a category adds none.
    QCOMPARE(known.value().categories, (QStringList{u"text"_s, u"time"_s}));
}

void TestTokenScopeCheck::unknown_data()
{
    QTest::addColumn<QStringList>("keys");
    QTest::addColumn<QStringList>("categories");
    QTest::addColumn<QStringList>("unknownKeys");
    QTest::addColumn<QStringList>("unknownCategories");

    QTest::addRow("all known") << QStringList{u"NOW"_s, u"ECHO_BACK"_s} << QStringList{u"time"_s}
                               << QStringList() << QStringList();
    QTest::addRow("an unknown key") << QStringList{u"NOW"_s, u"NOPE"_s} << QStringList()
                                    << QStringList{u"NOPE"_s} << QStringList();
    QTest::addRow("an unknown category") << QStringList() << QStringList{u"time"_s, u"weather"_s}
                                         << QStringList() << QStringList{u"weather"_s};
    QTest::addRow("exact names, as the gate compares them")
        << QStringList{u"now"_s} << QStringList{u"Time"_s} << QStringList{u"now"_s} << QStringList{u"Time"_s};
    QTest::addRow("a category's name is no key, nor a key's a category")
        << QStringList{u"time"_s} << QStringList{u"NOW"_s} << QStringList{u"time"_s} << QStringList{u"NOW"_s};
    QTest::addRow("in the token's order") << QStringList{u"ZED"_s, u"NOW"_s, u"ALPHA"_s} << QStringList()
                                          << QStringList{u"ZED"_s, u"ALPHA"_s} << QStringList();
    QTest::addRow("no scope: nothing unknown")
        << QStringList() << QStringList() << QStringList() << QStringList();
}

void TestTokenScopeCheck::unknown()
{
    QFETCH(QStringList, keys);
    QFETCH(QStringList, categories);
    CapabilityToken token;
    token.allowedKeys = keys;
    token.allowedCategories = categories;
    const TokenScopeCheck::Names unknown = TokenScopeCheck::unknown(token, kKnown);
    QTEST(unknown.keys, "unknownKeys");
    QTEST(unknown.categories, "unknownCategories");
    QCOMPARE(unknown.isEmpty(), unknown.keys.isEmpty() && unknown.categories.isEmpty());
}

void TestTokenScopeCheck::describe_data()
{
    QTest::addColumn<QStringList>("keys");
    QTest::addColumn<QStringList>("categories");
    QTest::addColumn<QString>("text");

    QTest::addRow("nothing") << QStringList() << QStringList() << QString();
    QTest::addRow("one key") << QStringList{u"NOPE"_s} << QStringList() << u"no row has the key NOPE"_s;
    QTest::addRow("keys") << QStringList{u"NOPE"_s, u"NADA"_s} << QStringList()
                          << u"no row has the keys NOPE, NADA"_s;
    QTest::addRow("one category") << QStringList() << QStringList{u"weather"_s}
                                  << u"no row has the category weather"_s;
    QTest::addRow("both") << QStringList{u"NOPE"_s} << QStringList{u"a"_s, u"b"_s}
                          << u"no row has the key NOPE; no row has the categories a, b"_s;
}

void TestTokenScopeCheck::describe()
{
    QFETCH(QStringList, keys);
    QFETCH(QStringList, categories);
    QTEST(TokenScopeCheck::describe({keys, categories}), "text");
}

QTEST_GUILESS_MAIN(TestTokenScopeCheck)
#include "tst_tokenscopecheck.moc"
