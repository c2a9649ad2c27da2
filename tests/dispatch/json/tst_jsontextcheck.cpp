#include "dispatch/json/jsontextcheck.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QTest>

// JsonTextCheck turns QJsonParseError's UTF-8 byte offset into the position an editor
// uses: a QString (UTF-16) offset plus 1-based line and column. The positions below are
// where Qt's parser stops, counted in characters of the text as typed.
class TestJsonTextCheck : public QObject
{
    Q_OBJECT

private slots:
    void validTextHasNoPosition_data();
    void validTextHasNoPosition();
    void errorPosition_data();
    void errorPosition();
};

namespace {

// The same text with every non-ASCII UTF-16 unit replaced by one ASCII letter: the error
// must sit at the same character position in both.
QString asciiTwin(const QString &text)
{
    QString twin = text;
    for (QChar &c : twin) {
        if (c.unicode() >= 0x80)
            c = u'x';
    }
    return twin;
}

} // namespace

void TestJsonTextCheck::validTextHasNoPosition_data()
{
    QTest::addColumn<QString>("text");

    QTest::addRow("empty object") << QStringLiteral("{}");
    QTest::addRow("empty array") << QStringLiteral("[]");
    QTest::addRow("multi-line, non-ASCII")
        << QStringLiteral("{\n  \"städte\": [\"Zürich\", \"東京\", \"🙂\"]\n}");
    QTest::addRow("surrounding white space") << QStringLiteral("\n\n  [1, 2]\n\n");
}

void TestJsonTextCheck::validTextHasNoPosition()
{
    QFETCH(QString, text);
    const JsonTextCheck check = JsonTextCheck::parse(text);
    QVERIFY(check.ok);
    QVERIFY(check.message.isEmpty());
    QCOMPARE(check.offset, -1);
    QCOMPARE(check.line, 0);
    QCOMPARE(check.column, 0);
    QVERIFY(check.document.isObject() || check.document.isArray());
    if (text.contains(QStringLiteral("städte")))
        QCOMPARE(check.document.object().value(QStringLiteral("städte")).toArray().at(2).toString(),
                 QStringLiteral("🙂"));
}

void TestJsonTextCheck::errorPosition_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("offset");
    QTest::addColumn<int>("line");
    QTest::addColumn<int>("column");

    // One line.
    QTest::addRow("missing value") << QStringLiteral("{\"type\": }") << 10 << 1 << 11;
    QTest::addRow("garbage after the document") << QStringLiteral("{} x") << 3 << 1 << 4;
    QTest::addRow("bare word") << QStringLiteral("a|b") << 1 << 1 << 2;
    QTest::addRow("missing name separator") << QStringLiteral("{\"xx\" 1}") << 7 << 1 << 8;
    QTest::addRow("missing name separator after CJK") << QStringLiteral("{\"名前\" 1}") << 7 << 1 << 8;
    QTest::addRow("unterminated") << QStringLiteral("[\"xxx") << 5 << 1 << 6;
    QTest::addRow("unterminated CJK") << QStringLiteral("[\"日本語") << 5 << 1 << 6;

    // Several lines: the column restarts after each line feed.
    QTest::addRow("line 3") << QStringLiteral("{\n  \"type\": \"object\",\n  \"required\": [\"a\",]\n}") << 42
                            << 3 << 21;
    QTest::addRow("line 3 after Latin-1 letters")
        << QStringLiteral("{\n  \"tÿpe\": \"öbject\",\n  \"required\": [\"ä\",]\n}") << 42 << 3 << 21;
    QTest::addRow("line 3 after an emoji line") << QStringLiteral("[\n\"🙂\",\n  x]") << 10 << 3 << 3;
    QTest::addRow("line 3 after é") << QStringLiteral("{\n\"é\": 1,\n\"b\" 2}") << 15 << 3 << 6;
    QTest::addRow("line 2 bad escape after é") << QStringLiteral("[\"é\",\n\"\\u12\"]") << 11 << 2 << 6;
    QTest::addRow("line 4 missing comma, several scripts")
        << QStringLiteral("[\n  \"Grüße\",\n  \"ok\"\n  \"🙂\"\n]") << 23 << 4 << 4;
    QTest::addRow("blank lines first") << QStringLiteral("\n\n\n[1,]") << 7 << 4 << 5;
}

void TestJsonTextCheck::errorPosition()
{
    QFETCH(QString, text);
    QFETCH(int, offset);
    QFETCH(int, line);
    QFETCH(int, column);

    const JsonTextCheck check = JsonTextCheck::parse(text);
    QVERIFY(!check.ok);
    QVERIFY(check.document.isNull());
    QCOMPARE(check.offset, offset);
    QCOMPARE(check.line, line);
    QCOMPARE(check.column, column);
    const QString prefix = QStringLiteral("line %1, column %2: ").arg(line).arg(column);
    QVERIFY2(check.message.startsWith(prefix), qPrintable(check.message));
    QVERIFY2(check.message.size() > prefix.size(), qPrintable(check.message));

    // The position agrees with the text it points into.
    QVERIFY(check.offset >= 0 && check.offset <= text.size());
    const QString before = text.left(check.offset);
    QCOMPARE(int(before.count(u'\n')) + 1, check.line);

    // Characters, not bytes: the ASCII twin of the text fails at the same place.
    const QString twin = asciiTwin(text);
    if (twin != text) {
        const JsonTextCheck ascii = JsonTextCheck::parse(twin);
        QVERIFY(!ascii.ok);
        QCOMPARE(check.offset, ascii.offset);
        QCOMPARE(check.line, ascii.line);
        QCOMPARE(check.column, ascii.column);
        QCOMPARE(check.message, ascii.message);
    }
}

QTEST_GUILESS_MAIN(TestJsonTextCheck)
#include "tst_jsontextcheck.moc"
