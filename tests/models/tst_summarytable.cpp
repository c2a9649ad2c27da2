#include "models/summarytable.h"

#include <QTest>

#include <algorithm>

Q_DECLARE_METATYPE(RowSummary)
Q_DECLARE_METATYPE(SummaryTable::Type)

// SummaryTable keeps 100,000 row summaries in two arenas. These tests hold it to what a
// plain list of RowSummary would answer: accessors after every kind of edit, and a
// search that behaves like "does key, category or target contain the needle" (ASCII
// case-insensitive) however much dead text earlier edits left behind.
class TestSummaryTable : public QObject
{
    Q_OBJECT

private slots:
    void appendKeepsEveryField_data();
    void appendKeepsEveryField();
    void assignReplacesOneRow();
    void removeAtShiftsTheRest();
    void removeFlaggedRemapsIndexes();
    void clearEmptiesEverything();
    void search_data();
    void search();
    void searchAfterEdits_data();
    void searchAfterEdits();
    void searchEmptyTable();
    void longFieldsAreClippedOnACharacterBoundary_data();
    void longFieldsAreClippedOnACharacterBoundary();
    void typeNames_data();
    void typeNames();
    void foldAsciiLowersOnlyAscii();
    void keyOrderIsByteOrder_data();
    void keyOrderIsByteOrder();
    void keyOrderOfManyKeys();
};

namespace {

RowSummary summary(const QString &key, const QString &category = {}, const QString &target = {},
                   const QString &type = QStringLiteral("fn"), bool enabled = true, bool sensitive = false,
                   const QString &updatedAt = QStringLiteral("2026-07-26T04:36:19.832Z"))
{
    return {key, type, category, target, updatedAt, enabled, sensitive};
}

// What the table must answer for row `index`, field by field.
void verifyRow(const SummaryTable &table, int index, const RowSummary &expected)
{
    QCOMPARE(table.key(index), expected.key);
    QCOMPARE(table.category(index), expected.category);
    QCOMPARE(table.target(index), expected.target);
    QCOMPARE(table.updatedAt(index), expected.updatedAt);
    QCOMPARE(table.type(index), SummaryTable::typeFromName(expected.type));
    QCOMPARE(table.enabled(index), expected.enabled);
    QCOMPARE(table.sensitive(index), expected.sensitive);
    QCOMPARE(QByteArray(table.keyBytes(index).data(), qsizetype(table.keyBytes(index).size())),
             expected.key.toUtf8());
    QCOMPARE(QByteArray(table.updatedAtBytes(index).data(), qsizetype(table.updatedAtBytes(index).size())),
             expected.updatedAt.toUtf8());
}

// Six rows with overlapping words, so a needle tells fields and rows apart.
QList<RowSummary> sampleRows()
{
    return {
        summary(QStringLiteral("AB"), QStringLiteral("CD"), QStringLiteral("EF")),
        summary(QStringLiteral("NOW"), QStringLiteral("time"), QStringLiteral("now"), QStringLiteral("fn")),
        summary(QStringLiteral("ZZ_TEST_TEMPERATURE"), QStringLiteral("weather"),
                QStringLiteral("GET https://api.example.com/Temp?city=$1"), QStringLiteral("http"), false,
                true),
        summary(QStringLiteral("ZURICH_INFO"), QStringLiteral("Städte"), QStringLiteral("Zürich ☀ 東京"),
                QStringLiteral("agent")),
        summary(QStringLiteral("DAILY_FLOW"), QString(), QStringLiteral("NOW > ZZ_TEST_TEMPERATURE"),
                QStringLiteral("flow"), true, false, QStringLiteral("1999-12-31T23:59:59.999Z")),
        summary(QStringLiteral("EMPTY_TARGET"), QStringLiteral("tools"), QString(), QStringLiteral("fn"),
                false),
    };
}

SummaryTable tableOf(const QList<RowSummary> &rows)
{
    SummaryTable table;
    for (const RowSummary &row : rows)
        table.append(row);
    return table;
}

// The reference: a row matches when a field contains the needle, ASCII letters folded.
QStringList expectedKeys(const QList<RowSummary> &rows, const QString &needle)
{
    const std::string folded = SummaryTable::foldAscii(needle);
    QStringList keys;
    for (const RowSummary &row : rows) {
        for (const QString &field : {row.key, row.category, row.target}) {
            if (SummaryTable::foldAscii(field).find(folded) != std::string::npos) {
                keys.append(row.key);
                break;
            }
        }
    }
    return keys;
}

QStringList hitKeys(const SummaryTable &table, const QString &needle)
{
    const std::vector<char> hits = table.rowsContaining(SummaryTable::foldAscii(needle));
    if (hits.size() != std::size_t(table.size()))
        return {QStringLiteral("<wrong hit vector size>")};
    QStringList keys;
    for (int i = 0; i < table.size(); ++i) {
        if (hits[std::size_t(i)])
            keys.append(table.key(i));
    }
    return keys;
}

} // namespace

void TestSummaryTable::appendKeepsEveryField_data()
{
    QTest::addColumn<RowSummary>("row");

    QTest::addRow("plain") << summary(QStringLiteral("NOW"), QStringLiteral("time"), QStringLiteral("now"));
    QTest::addRow("http, disabled, sensitive")
        << summary(QStringLiteral("ZZ_TEST_TEMPERATURE"), QStringLiteral("weather"),
                   QStringLiteral("GET https://api.example.com/t"), QStringLiteral("http"), false, true);
    QTest::addRow("agent") << summary(QStringLiteral("WRITER"), QStringLiteral("llm"),
                                      QStringLiteral("grok-4"), QStringLiteral("agent"));
    QTest::addRow("flow") << summary(QStringLiteral("DAILY"), QStringLiteral("flows"),
                                     QStringLiteral("A > B"), QStringLiteral("flow"));
    QTest::addRow("unknown type") << summary(QStringLiteral("ODD"), QString(), QString(),
                                             QStringLiteral("sql"));
    QTest::addRow("empty fields") << summary(QStringLiteral("E1"), QString(), QString(), QString(), true,
                                             false, QString());
    QTest::addRow("non-ASCII everywhere")
        << summary(QStringLiteral("ÜBER_ß"), QStringLiteral("Städte · 東京"),
                   QStringLiteral("POST https://例え.jp/🙂?q=$1"), QStringLiteral("http"), true, true,
                   QStringLiteral("2026-07-26T04:36:19.832Z"));
    QTest::addRow("separator-like text")
        << summary(QStringLiteral("TABS"), QStringLiteral("a\tb"), QStringLiteral("line\nbreak"));
}

void TestSummaryTable::appendKeepsEveryField()
{
    QFETCH(RowSummary, row);
    SummaryTable table;
    // Surround the row with others so offsets are not all zero.
    QCOMPARE(table.append(summary(QStringLiteral("BEFORE"), QStringLiteral("x"), QStringLiteral("y"))), 0);
    QCOMPARE(table.append(row), 1);
    QCOMPARE(table.append(summary(QStringLiteral("AFTER"), QStringLiteral("p"), QStringLiteral("q"))), 2);
    QCOMPARE(table.size(), 3);
    verifyRow(table, 1, row);
    verifyRow(table, 0, summary(QStringLiteral("BEFORE"), QStringLiteral("x"), QStringLiteral("y")));
    verifyRow(table, 2, summary(QStringLiteral("AFTER"), QStringLiteral("p"), QStringLiteral("q")));
    QVERIFY(!table.modified(1));
    QCOMPARE(table.typeName(1), SummaryTable::typeName(SummaryTable::typeFromName(row.type)));

    // The same through the raw-bytes overload.
    const QByteArray key = row.key.toUtf8(), type = row.type.toUtf8(), category = row.category.toUtf8(),
                     target = row.target.toUtf8(), updatedAt = row.updatedAt.toUtf8();
    auto view = [](const QByteArray &bytes) {
        return std::string_view(bytes.constData(), std::size_t(bytes.size()));
    };
    SummaryTable raw;
    raw.append(RowSummaryView{view(key), view(type), view(category), view(target), view(updatedAt),
                              row.enabled, row.sensitive});
    verifyRow(raw, 0, row);
}

void TestSummaryTable::assignReplacesOneRow()
{
    QList<RowSummary> rows = sampleRows();
    SummaryTable table = tableOf(rows);
    table.setModified(1, true);
    table.setModified(3, true);

    const RowSummary replacement =
        summary(QStringLiteral("NOW"), QStringLiteral("clock"), QStringLiteral("now_v2"),
                QStringLiteral("http"), false, true, QStringLiteral("2027-01-01T00:00:00.000Z"));
    table.assign(1, replacement);
    rows[1] = replacement;
    const RowSummary longer =
        summary(QStringLiteral("AB_MUCH_LONGER_KEY"), QStringLiteral("a much longer category"),
                QStringLiteral("x"), QStringLiteral("agent"));
    table.assign(0, longer);
    rows[0] = longer;

    QCOMPARE(table.size(), int(rows.size()));
    for (int i = 0; i < rows.size(); ++i)
        verifyRow(table, i, rows.at(i));
    // assign keeps the modified mark: it records unsaved edits, not the content.
    QVERIFY(table.modified(1));
    QVERIFY(table.modified(3));
    QVERIFY(!table.modified(0));
    table.setModified(1, false);
    QVERIFY(!table.modified(1));
    verifyRow(table, 1, replacement); // clearing the mark leaves the flags alone
}

void TestSummaryTable::removeAtShiftsTheRest()
{
    QList<RowSummary> rows = sampleRows();
    SummaryTable table = tableOf(rows);
    table.setModified(4, true);

    table.removeAt(2);
    rows.removeAt(2);
    QCOMPARE(table.size(), int(rows.size()));
    for (int i = 0; i < rows.size(); ++i)
        verifyRow(table, i, rows.at(i));
    QVERIFY(table.modified(3)); // was row 4
    QVERIFY(!table.modified(2));

    table.removeAt(0);
    rows.removeAt(0);
    table.removeAt(table.size() - 1);
    rows.removeLast();
    QCOMPARE(table.size(), int(rows.size()));
    for (int i = 0; i < rows.size(); ++i)
        verifyRow(table, i, rows.at(i));

    // Appending after removals lands at the end with its own text.
    const RowSummary fresh = summary(QStringLiteral("FRESH"), QStringLiteral("new"), QStringLiteral("t"));
    QCOMPARE(table.append(fresh), int(rows.size()));
    rows.append(fresh);
    for (int i = 0; i < rows.size(); ++i)
        verifyRow(table, i, rows.at(i));
}

void TestSummaryTable::removeFlaggedRemapsIndexes()
{
    QList<RowSummary> rows = sampleRows();
    SummaryTable table = tableOf(rows);
    table.setModified(3, true);

    const std::vector<char> remove{1, 0, 1, 0, 0, 1};
    const std::vector<int> remap = table.removeFlagged(remove);
    QCOMPARE(remap, (std::vector<int>{-1, 0, -1, 1, 2, -1}));
    const QList<RowSummary> kept{rows.at(1), rows.at(3), rows.at(4)};
    QCOMPARE(table.size(), int(kept.size()));
    for (int i = 0; i < kept.size(); ++i)
        verifyRow(table, i, kept.at(i));
    QVERIFY(table.modified(1));
    QVERIFY(!table.modified(0));

    // Nothing flagged: identity.
    QCOMPARE(table.removeFlagged(std::vector<char>(3, 0)), (std::vector<int>{0, 1, 2}));
    QCOMPARE(table.size(), 3);
    // Everything flagged.
    QCOMPARE(table.removeFlagged(std::vector<char>(3, 1)), (std::vector<int>{-1, -1, -1}));
    QCOMPARE(table.size(), 0);
}

void TestSummaryTable::clearEmptiesEverything()
{
    SummaryTable table = tableOf(sampleRows());
    QVERIFY(!hitKeys(table, QStringLiteral("now")).isEmpty());
    table.clear();
    QCOMPARE(table.size(), 0);
    QVERIFY(table.rowsContaining(SummaryTable::foldAscii(QStringLiteral("now"))).empty());
    const RowSummary only = summary(QStringLiteral("ONLY"), QStringLiteral("c"), QStringLiteral("t"));
    table.append(only);
    verifyRow(table, 0, only);
    QCOMPARE(hitKeys(table, QStringLiteral("now")), QStringList());
    QCOMPARE(hitKeys(table, QStringLiteral("only")), QStringList{QStringLiteral("ONLY")});
}

void TestSummaryTable::search_data()
{
    QTest::addColumn<QString>("needle");
    QTest::addColumn<QStringList>("keys");

    const QString ab = QStringLiteral("AB"), now = QStringLiteral("NOW"),
                  temp = QStringLiteral("ZZ_TEST_TEMPERATURE"), zurich = QStringLiteral("ZURICH_INFO"),
                  daily = QStringLiteral("DAILY_FLOW"), empty = QStringLiteral("EMPTY_TARGET");
    const QStringList all{ab, now, temp, zurich, daily, empty};

    QTest::addRow("empty needle is everything") << QString() << all;
    QTest::addRow("key, exact case") << QStringLiteral("AB") << QStringList{ab};
    QTest::addRow("key, lower case") << QStringLiteral("ab") << QStringList{ab};
    QTest::addRow("mixed case") << QStringLiteral("nOw") << QStringList{now, daily};
    QTest::addRow("category") << QStringLiteral("WEATHER") << QStringList{temp};
    QTest::addRow("target") << QStringLiteral("api.example") << QStringList{temp};
    QTest::addRow("target, upper-case letters inside") << QStringLiteral("/temp?") << QStringList{temp};
    QTest::addRow("not across key|category") << QStringLiteral("bc") << QStringList();
    QTest::addRow("not across category|target") << QStringLiteral("de") << QStringList();
    QTest::addRow("not across target|next row's key") << QStringLiteral("fn") << QStringList();
    QTest::addRow("whole key and category") << QStringLiteral("abcd") << QStringList();
    QTest::addRow("not updated_at") << QStringLiteral("2026-07") << QStringList();
    QTest::addRow("not updated_at, other row") << QStringLiteral("1999") << QStringList();
    QTest::addRow("not type") << QStringLiteral("agent") << QStringList();
    QTest::addRow("last row's category") << QStringLiteral("tools") << QStringList{empty};
    QTest::addRow("one row matched twice is listed once")
        << QStringLiteral("t") << QStringList{now, temp, zurich, daily, empty};
    QTest::addRow("non-ASCII exact") << QStringLiteral("Zürich") << QStringList{zurich};
    QTest::addRow("non-ASCII, ASCII letters folded") << QStringLiteral("ZüRiCH") << QStringList{zurich};
    QTest::addRow("non-ASCII letters are not folded") << QStringLiteral("ZÜRICH") << QStringList();
    QTest::addRow("CJK") << QStringLiteral("東京") << QStringList{zurich};
    QTest::addRow("symbol") << QStringLiteral("☀") << QStringList{zurich};
    QTest::addRow("underscore") << QStringLiteral("_test_") << QStringList{temp, daily};
    QTest::addRow("space and symbol") << QStringLiteral(" > ") << QStringList{daily};
    QTest::addRow("no match") << QStringLiteral("xyzzy") << QStringList();
    QTest::addRow("longer than any field") << QString(200, u'a') << QStringList();
}

void TestSummaryTable::search()
{
    QFETCH(QString, needle);
    QFETCH(QStringList, keys);
    const QList<RowSummary> rows = sampleRows();
    const SummaryTable table = tableOf(rows);
    QCOMPARE(expectedKeys(rows, needle), keys); // the reference agrees with the table below
    QCOMPARE(hitKeys(table, needle), keys);
    // Asking twice gives the same answer (the order index is cached after the first).
    QCOMPARE(hitKeys(table, needle), keys);
}

void TestSummaryTable::searchAfterEdits_data()
{
    QTest::addColumn<QString>(
        "edits"); // a little script: a<i> assign, r<i> removeAt, f<mask> removeFlagged, p append
    QTest::addColumn<QString>("needle");

    // Each script is checked against the reference for the needle; the needles below are
    // chosen to sit only in old text, only in new text, or in both.
    const QStringList scripts{
        QStringLiteral("a0"),      QStringLiteral("a1"),       QStringLiteral("a5"),
        QStringLiteral("a0 a0"),   QStringLiteral("a2 a0 a4"), QStringLiteral("r0"),
        QStringLiteral("r3"),      QStringLiteral("r5"),       QStringLiteral("f101001"),
        QStringLiteral("f010110"), QStringLiteral("a1 r0"),    QStringLiteral("a0 f100000"),
        QStringLiteral("r2 a0 p"), QStringLiteral("p a6 r0"),  QStringLiteral("a3 p a0 f0100101"),
    };
    const QStringList needles{
        QStringLiteral("ab"), // row 0's old key: gone once row 0 is reassigned
        QStringLiteral("time"), // row 1's old category
        QStringLiteral("tools"), // row 5's old category
        QStringLiteral("edited"), // only in replacement text
        QStringLiteral("now"), // old and new text of several rows
        QStringLiteral("zz_test"), // two rows, one of them removed in some scripts
        QStringLiteral("ü"), // non-ASCII
        QStringLiteral("t"), // nearly everything
        QString(), // everything
    };
    for (const QString &script : scripts) {
        for (const QString &needle : needles) {
            QTest::addRow("%s / '%s'", qPrintable(script), needle.toUtf8().constData()) << script << needle;
        }
    }
}

void TestSummaryTable::searchAfterEdits()
{
    QFETCH(QString, edits);
    QFETCH(QString, needle);

    QList<RowSummary> rows = sampleRows();
    SummaryTable table = tableOf(rows);
    // Search before editing, so the cached order index exists and must be invalidated.
    QCOMPARE(hitKeys(table, QStringLiteral("now")), expectedKeys(rows, QStringLiteral("now")));

    int counter = 0;
    for (const QString &step : edits.split(u' ')) {
        const QChar op = step.at(0);
        if (op == u'a') {
            const int index = step.mid(1).toInt();
            ++counter;
            const RowSummary replacement =
                summary(QStringLiteral("EDITED_%1").arg(counter), QStringLiteral("edited"),
                        QStringLiteral("now_edited_%1").arg(counter));
            table.assign(index, replacement);
            rows[index] = replacement;
        } else if (op == u'r') {
            const int index = step.mid(1).toInt();
            table.removeAt(index);
            rows.removeAt(index);
        } else if (op == u'f') {
            const QString mask = step.mid(1);
            QCOMPARE(mask.size(), rows.size());
            std::vector<char> flags;
            for (int i = int(rows.size()) - 1; i >= 0; --i) {
                if (mask.at(i) == u'1')
                    rows.removeAt(i);
            }
            for (QChar c : mask)
                flags.push_back(c == u'1' ? 1 : 0);
            table.removeFlagged(flags);
        } else if (op == u'p') {
            const RowSummary appended = summary(QStringLiteral("APPENDED_%1").arg(++counter),
                                                QStringLiteral("Zürich"), QStringLiteral("time"));
            table.append(appended);
            rows.append(appended);
        }
        // The table still answers like the reference after every step.
        QCOMPARE(table.size(), int(rows.size()));
        QCOMPARE(hitKeys(table, needle), expectedKeys(rows, needle));
    }
    for (int i = 0; i < rows.size(); ++i)
        verifyRow(table, i, rows.at(i));
}

void TestSummaryTable::searchEmptyTable()
{
    const SummaryTable table;
    QVERIFY(table.rowsContaining(std::string_view()).empty());
    QVERIFY(table.rowsContaining("x").empty());
}

void TestSummaryTable::longFieldsAreClippedOnACharacterBoundary_data()
{
    QTest::addColumn<QString>("prefix");
    QTest::addColumn<QString>("unit"); // repeated after the prefix to fill the field
    QTest::addColumn<int>("repeat");
    QTest::addColumn<int>("keptBytes"); // UTF-8 bytes the table keeps (at most 65535)

    const QString none;
    QTest::addRow("ASCII, exactly 65535") << none << QStringLiteral("a") << 65535 << 65535;
    QTest::addRow("ASCII, 65536") << none << QStringLiteral("a") << 65536 << 65535;
    QTest::addRow("ASCII, 70000") << none << QStringLiteral("a") << 70000 << 65535;
    QTest::addRow("2-byte, cut inside a character") << none << QStringLiteral("é") << 40000 << 65534;
    QTest::addRow("2-byte after one ASCII, cut on a boundary")
        << QStringLiteral("a") << QStringLiteral("é") << 40000 << 65535;
    QTest::addRow("3-byte, cut on a boundary") << none << QStringLiteral("€") << 30000 << 65535;
    // 1 + 3k bytes: the last whole character ends at 65533.
    QTest::addRow("3-byte after one ASCII, cut inside")
        << QStringLiteral("a") << QStringLiteral("€") << 30000 << 65533;
    QTest::addRow("4-byte, cut inside a character") << none << QStringLiteral("🙂") << 20000 << 65532;
    QTest::addRow("4-byte after three ASCII, cut on a boundary")
        << QStringLiteral("abc") << QStringLiteral("🙂") << 20000 << 65535;
}

void TestSummaryTable::longFieldsAreClippedOnACharacterBoundary()
{
    QFETCH(QString, prefix);
    QFETCH(QString, unit);
    QFETCH(int, repeat);
    QFETCH(int, keptBytes);

    const QString text = prefix + unit.repeated(repeat);
    const QByteArray utf8 = text.toUtf8();
    const QByteArray expected = utf8.left(keptBytes);
    QVERIFY(QString::fromUtf8(expected).toUtf8() == expected); // a whole number of characters

    SummaryTable table;
    const RowSummary before = summary(QStringLiteral("BEFORE"), QStringLiteral("c"), QStringLiteral("t"));
    const RowSummary after = summary(QStringLiteral("AFTER"), QStringLiteral("c2"), QStringLiteral("needle"));
    table.append(before);
    table.append(summary(QStringLiteral("LONG"), text, text, QStringLiteral("fn"), true, false, text));
    table.append(after);

    for (auto bytes : {table.categoryBytes(1), table.targetBytes(1), table.updatedAtBytes(1)}) {
        QCOMPARE(int(bytes.size()), keptBytes);
        QVERIFY(QByteArray(bytes.data(), qsizetype(bytes.size())) == expected);
    }
    QCOMPARE(table.category(1), QString::fromUtf8(expected));
    QCOMPARE(table.target(1), table.category(1));
    QCOMPARE(table.updatedAt(1), table.category(1));
    QVERIFY(!table.category(1).contains(QChar::ReplacementCharacter));
    QCOMPARE(table.key(1), QStringLiteral("LONG"));
    // Rows around it are untouched and still found.
    verifyRow(table, 0, before);
    verifyRow(table, 2, after);
    QCOMPARE(hitKeys(table, QStringLiteral("needle")), QStringList{QStringLiteral("AFTER")});
    QCOMPARE(hitKeys(table, unit.repeated(3)), QStringList{QStringLiteral("LONG")});
}

void TestSummaryTable::typeNames_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<SummaryTable::Type>("type");
    QTest::addColumn<QString>("shown");

    QTest::addRow("fn") << QStringLiteral("fn") << SummaryTable::Type::Fn << QStringLiteral("fn");
    QTest::addRow("http") << QStringLiteral("http") << SummaryTable::Type::Http << QStringLiteral("http");
    QTest::addRow("agent") << QStringLiteral("agent") << SummaryTable::Type::Agent << QStringLiteral("agent");
    QTest::addRow("flow") << QStringLiteral("flow") << SummaryTable::Type::Flow << QStringLiteral("flow");
    QTest::addRow("upper case") << QStringLiteral("FN") << SummaryTable::Type::Unknown << QStringLiteral("?");
    QTest::addRow("empty") << QString() << SummaryTable::Type::Unknown << QStringLiteral("?");
    QTest::addRow("other") << QStringLiteral("sql") << SummaryTable::Type::Unknown << QStringLiteral("?");
}

void TestSummaryTable::typeNames()
{
    QFETCH(QString, name);
    QFETCH(SummaryTable::Type, type);
    QFETCH(QString, shown);
    QCOMPARE(SummaryTable::typeFromName(name), type);
    const QByteArray utf8 = name.toUtf8();
    QCOMPARE(SummaryTable::typeFromBytes(std::string_view(utf8.constData(), std::size_t(utf8.size()))), type);
    QCOMPARE(SummaryTable::typeName(type), shown);
    SummaryTable table;
    table.append(summary(QStringLiteral("K1"), QString(), QString(), name));
    QCOMPARE(table.type(0), type);
    QCOMPARE(table.typeName(0), shown);
}

void TestSummaryTable::foldAsciiLowersOnlyAscii()
{
    QCOMPARE(SummaryTable::foldAscii(QStringLiteral("AbC_09-Z")), std::string("abc_09-z"));
    QCOMPARE(SummaryTable::foldAscii(QStringLiteral("ÄÖÜ")),
             std::string(QStringLiteral("ÄÖÜ").toUtf8().constData()));
    QCOMPARE(SummaryTable::foldAscii(QString()), std::string());
}

// keyOrder() compares the first 16 bytes packed into integers and only then whole keys,
// so the cases sit on both sides of that boundary, and the answer must be the byte order
// SQLite's BINARY collation gives (what `after=KEY` paging and selectKey rely on).
void TestSummaryTable::keyOrderIsByteOrder_data()
{
    QTest::addColumn<QStringList>("keys"); // in appending order
    QTest::addColumn<QStringList>("ordered");

    QTest::addRow("empty table") << QStringList() << QStringList();
    QTest::addRow("one key") << QStringList{QStringLiteral("NOW")} << QStringList{QStringLiteral("NOW")};
    QTest::addRow("a prefix sorts first")
        << QStringList{QStringLiteral("AB"), QStringLiteral("A"), QStringLiteral("ABC")}
        << QStringList{QStringLiteral("A"), QStringLiteral("AB"), QStringLiteral("ABC")};
    QTest::addRow("upper case before lower case, digits before both")
        << QStringList{QStringLiteral("b"), QStringLiteral("B"), QStringLiteral("a"), QStringLiteral("1")}
        << QStringList{QStringLiteral("1"), QStringLiteral("B"), QStringLiteral("a"), QStringLiteral("b")};
    QTest::addRow("the same 16 bytes, then different")
        << QStringList{QStringLiteral("ARCHIVE_ALERT_10_B"), QStringLiteral("ARCHIVE_ALERT_10_A"),
                       QStringLiteral("ARCHIVE_ALERT_10")}
        << QStringList{QStringLiteral("ARCHIVE_ALERT_10"), QStringLiteral("ARCHIVE_ALERT_10_A"),
                       QStringLiteral("ARCHIVE_ALERT_10_B")};
    QTest::addRow("different in byte 8, the second integer")
        << QStringList{QStringLiteral("ARCHIVE_Z"), QStringLiteral("ARCHIVE_A")}
        << QStringList{QStringLiteral("ARCHIVE_A"), QStringLiteral("ARCHIVE_Z")};
    QTest::addRow("different in byte 15, the last one packed")
        << QStringList{QStringLiteral("ABCDEFGHIJKLMNOZ"), QStringLiteral("ABCDEFGHIJKLMNOA")}
        << QStringList{QStringLiteral("ABCDEFGHIJKLMNOA"), QStringLiteral("ABCDEFGHIJKLMNOZ")};
    QTest::addRow("different in byte 16, the first one not packed")
        << QStringList{QStringLiteral("ABCDEFGHIJKLMNOPZ"), QStringLiteral("ABCDEFGHIJKLMNOPA")}
        << QStringList{QStringLiteral("ABCDEFGHIJKLMNOPA"), QStringLiteral("ABCDEFGHIJKLMNOPZ")};
    QTest::addRow("non-ASCII bytes sort after ASCII, by their UTF-8 bytes")
        << QStringList{QStringLiteral("Zürich"), QStringLiteral("Zz"), QStringLiteral("東京"),
                       QStringLiteral("Zu")}
        << QStringList{QStringLiteral("Zu"), QStringLiteral("Zz"), QStringLiteral("Zürich"),
                       QStringLiteral("東京")};
    QTest::addRow("a NUL byte inside a key is a byte like any other")
        << QStringList{QStringLiteral("A%1B").arg(QChar(0)), QStringLiteral("A"),
                       QStringLiteral("A%1").arg(QChar(0))}
        << QStringList{QStringLiteral("A"), QStringLiteral("A%1").arg(QChar(0)),
                       QStringLiteral("A%1B").arg(QChar(0))};
}

void TestSummaryTable::keyOrderIsByteOrder()
{
    QFETCH(QStringList, keys);
    QFETCH(QStringList, ordered);
    SummaryTable table;
    for (const QString &key : std::as_const(keys))
        table.append(summary(key));
    QStringList inOrder;
    for (int index : table.keyOrder())
        inOrder.append(table.key(index));
    QCOMPARE(inOrder, ordered);
}

// Against a plain sort of the keys' bytes, over keys that share long prefixes.
void TestSummaryTable::keyOrderOfManyKeys()
{
    SummaryTable table;
    std::vector<std::string> expected;
    const QStringList stems{QStringLiteral("ARCHIVE_ALERT_"), QStringLiteral("ARCHIVE_ALERTS_DAILY_"),
                            QStringLiteral("A"), QStringLiteral("BLOCK_"), QStringLiteral("é_")};
    for (int i = 0; i < 3000; ++i) {
        const QString key = stems.at(i % stems.size()) + QString::number((i * 7919) % 3001);
        table.append(summary(key));
        expected.push_back(key.toStdString());
    }
    std::sort(expected.begin(), expected.end());
    const std::vector<int> order = table.keyOrder();
    QCOMPARE(order.size(), expected.size());
    for (std::size_t i = 0; i < order.size(); ++i)
        QCOMPARE(std::string(table.keyBytes(order[i])), expected[i]);
}

QTEST_GUILESS_MAIN(TestSummaryTable)
#include "tst_summarytable.moc"
