#include "dispatch/json/canonicaljson.h"
#include "dispatch/row/rowcanonicaljson.h"

#include <QTest>

Q_DECLARE_METATYPE(Row)

// RowCanonicalJson must give exactly CanonicalJson::serialize(row.toJson()): event hashes
// are defined over the latter.
class TestRowCanonicalJson : public QObject
{
    Q_OBJECT

private slots:
    void matchesCanonicalJsonOfTheRowObject_data();
    void matchesCanonicalJsonOfTheRowObject();
    void stringsMatchCanonicalJson_data();
    void stringsMatchCanonicalJson();
};

void TestRowCanonicalJson::matchesCanonicalJsonOfTheRowObject_data()
{
    QTest::addColumn<Row>("row");

    Row minimal;
    minimal.key = QStringLiteral("NOW");
    minimal.type = QStringLiteral("fn");
    QTest::addRow("nulls and defaults") << minimal;

    Row full = minimal;
    full.target = QStringLiteral("GET https://api.example.com/items/$1");
    full.auth = QStringLiteral("bearer:API");
    full.content =
        QStringLiteral("# WHAT: \"quoted\" \\ back\\slash\n# EX: [NOW]x[/NOW]\r\n\t{\"a\": 1}\u0001\u001f");
    full.updatedAt = QStringLiteral("2026-07-26T04:36:19.832Z");
    full.createdAt = QStringLiteral("2026-07-25T00:00:00.000Z");
    full.category = QStringLiteral("tools");
    full.allowedCategories = QString(); // null stays null
    full.seq = -42;
    full.enabled = false;
    full.plannerVisible = false;
    full.plannerRank = 9007199254740993LL; // beyond a double's exact range
    full.inputSchema = QStringLiteral("{\"type\":\"object\"}");
    full.examples = QStringLiteral("[\"[NOW]x[/NOW]\"]");
    full.sensitive = true;
    full.runner = QStringLiteral("");
    full.includes = QStringLiteral("A,B");
    QTest::addRow("every column set") << full;

    Row unicode = minimal;
    unicode.content = QStringLiteral("ünïcödé — 日本語 🙂 \u2028 \uffff");
    unicode.category = QString(QChar(0xD800)); // a lone surrogate
    QTest::addRow("non-ASCII and a lone surrogate") << unicode;
}

void TestRowCanonicalJson::matchesCanonicalJsonOfTheRowObject()
{
    QFETCH(Row, row);
    QCOMPARE(RowCanonicalJson::serialize(row), CanonicalJson::serialize(row.toJson()));
}

void TestRowCanonicalJson::stringsMatchCanonicalJson_data()
{
    QTest::addColumn<QString>("text");
    QTest::addRow("empty") << QString();
    QTest::addRow("plain") << QStringLiteral("plain text");
    QTest::addRow("escapes") << QStringLiteral("\" \\ \b \f \n \r \t \u0000 \u000b \u007f");
    QTest::addRow("non-ASCII") << QStringLiteral("é 🙂");
}

void TestRowCanonicalJson::stringsMatchCanonicalJson()
{
    QFETCH(QString, text);
    QByteArray written;
    CanonicalJson::appendString(text, &written);
    QCOMPARE(written, CanonicalJson::serialize(QJsonValue(text)));
}

QTEST_GUILESS_MAIN(TestRowCanonicalJson)
#include "tst_rowcanonicaljson.moc"
