#include "dispatch/json/jsonkeyorder.h"

#include <QTest>

using namespace Qt::StringLiterals;

// The keys of a member object in the order the text writes them.
class TestJsonKeyOrder : public QObject
{
    Q_OBJECT

private slots:
    void keysOf_data();
    void keysOf();
};

void TestJsonKeyOrder::keysOf_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QStringList>("keys");

    QTest::addRow("written order, not sorted")
        << uR"({"properties":{"z":1,"a":2,"m":3}})"_s << QStringList{u"z"_s, u"a"_s, u"m"_s};
    QTest::addRow("nested values skipped")
        << uR"({"type":"object","properties":{"b":{"type":"array","items":[{"x":"}"}]},"a":{"enum":["{",","]}}})"_s
        << QStringList{u"b"_s, u"a"_s};
    QTest::addRow("the member after others")
        << uR"({"x":[1,{"properties":{"no":1}}],"properties":{"k":"v"}})"_s << QStringList{u"k"_s};
    QTest::addRow("escapes decoded") << uR"({"properties":{"a\"b":1,"\u00e9":2}})"_s
                                     << QStringList{u"a\"b"_s, u"é"_s};
    QTest::addRow("a duplicate: the last, as Qt reads it")
        << uR"({"properties":{"a":1},"properties":{"b":1}})"_s << QStringList{u"b"_s};
    QTest::addRow("no such member") << uR"({"other":{"a":1}})"_s << QStringList();
    QTest::addRow("member not an object") << uR"({"properties":[1]})"_s << QStringList();
    QTest::addRow("not JSON") << u"{\"properties\":{\"a\":"_s << QStringList();
    QTest::addRow("an array at the top") << uR"([{"properties":{"a":1}}])"_s << QStringList();
}

void TestJsonKeyOrder::keysOf()
{
    QFETCH(QString, text);
    QFETCH(QStringList, keys);

    QCOMPARE(JsonKeyOrder::keysOf(text, u"properties"_s), keys);
}

QTEST_GUILESS_MAIN(TestJsonKeyOrder)
#include "tst_jsonkeyorder.moc"
