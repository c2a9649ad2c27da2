#include "dispatch/row/rowmerge.h"

#include <QTest>

// A write conflict's three-way merge: which fields are offered, which side each defaults
// to, and what the merged row holds.
class TestRowMerge : public QObject
{
    Q_OBJECT

private slots:
    void offersDifferingFieldsWithDefaults_data();
    void offersDifferingFieldsWithDefaults();
    void mergedRowTakesTheChosenSides();
    void mergedRowCarriesTheirTimestamp();
    void sameValuesNeedNoMerge();
    void choosingAnUnofferedFieldIsRefused();
    void longTextShowsTheChangedLines();
};

namespace {

Row baseRow()
{
    Row row;
    row.key = QStringLiteral("WEATHER");
    row.type = QStringLiteral("http");
    row.target = QStringLiteral("GET https://a.example/$1");
    row.category = QStringLiteral("weather");
    row.content = QStringLiteral("# WHAT: weather\n# ARGS: city\nline 3\nline 4\nline 5\nline 6\nline 7\n");
    row.updatedAt = QStringLiteral("2026-01-01T00:00:00.000Z");
    return row;
}

using Edit = QList<std::pair<QString, QVariant>>;

Row edited(Row row, const Edit &edit, const QString &stamp = {})
{
    for (const auto &[column, value] : edit)
        row.setValue(column, value);
    if (!stamp.isEmpty())
        row.updatedAt = stamp;
    return row;
}

} // namespace

void TestRowMerge::offersDifferingFieldsWithDefaults_data()
{
    QTest::addColumn<Edit>("theirEdit");
    QTest::addColumn<Edit>("myEdit");
    // "column=side" for each offered field, in column order.
    QTest::addColumn<QStringList>("offered");

    const QString t = QStringLiteral("target");
    const QString c = QStringLiteral("category");
    QTest::addRow("different fields")
        << Edit{{t, QStringLiteral("GET https://b.example/$1")}} << Edit{{c, QStringLiteral("climate")}}
        << QStringList{QStringLiteral("target=theirs"), QStringLiteral("category=mine")};
    QTest::addRow("same field, different values")
        << Edit{{c, QStringLiteral("theirs")}} << Edit{{c, QStringLiteral("mine")}}
        << QStringList{QStringLiteral("category=mine")};
    QTest::addRow("same field, same value")
        << Edit{{c, QStringLiteral("both")}} << Edit{{c, QStringLiteral("both")}} << QStringList{};
    QTest::addRow("they set NULL") << Edit{{c, QVariant()}} << Edit{}
                                   << QStringList{QStringLiteral("category=theirs")};
    QTest::addRow("integer and boolean fields")
        << Edit{{QStringLiteral("planner_rank"), qint64(5)}} << Edit{{QStringLiteral("enabled"), false}}
        << QStringList{QStringLiteral("enabled=mine"), QStringLiteral("planner_rank=theirs")};
}

void TestRowMerge::offersDifferingFieldsWithDefaults()
{
    QFETCH(Edit, theirEdit);
    QFETCH(Edit, myEdit);
    QFETCH(QStringList, offered);
    const RowMerge merge(baseRow(), edited(baseRow(), theirEdit, QStringLiteral("2026-02-02T00:00:00.000Z")),
                         edited(baseRow(), myEdit));
    QStringList got;
    for (const RowMerge::Field &field : merge.fields())
        got.append(
            field.column
            + (field.choice == RowMerge::Side::Mine ? QStringLiteral("=mine") : QStringLiteral("=theirs")));
    QCOMPARE(got, offered);
    QCOMPARE(merge.isEmpty(), offered.isEmpty());
}

void TestRowMerge::mergedRowTakesTheChosenSides()
{
    const Row theirs = edited(baseRow(),
                              {{QStringLiteral("target"), QStringLiteral("GET https://b.example/$1")},
                               {QStringLiteral("category"), QStringLiteral("theirs")}},
                              QStringLiteral("2026-02-02T00:00:00.000Z"));
    const Row mine = edited(baseRow(), {{QStringLiteral("category"), QStringLiteral("mine")},
                                        {QStringLiteral("seq"), qint64(7)}});
    RowMerge merge(baseRow(), theirs, mine);
    // Defaults: their target, my category and seq.
    Row merged = merge.merged();
    QCOMPARE(merged.target, theirs.target);
    QCOMPARE(merged.category, QStringLiteral("mine"));
    QCOMPARE(merged.seq, std::optional<qint64>(7));
    QVERIFY(merge.choose(QStringLiteral("category"), RowMerge::Side::Theirs));
    QVERIFY(merge.choose(QStringLiteral("target"), RowMerge::Side::Mine));
    merged = merge.merged();
    QCOMPARE(merged.target, baseRow().target);
    QCOMPARE(merged.category, QStringLiteral("theirs"));
    QCOMPARE(merged.seq, std::optional<qint64>(7));
}

void TestRowMerge::mergedRowCarriesTheirTimestamp()
{
    const Row theirs = edited(baseRow(), {{QStringLiteral("category"), QStringLiteral("x")}},
                              QStringLiteral("2026-03-03T00:00:00.000Z"));
    const RowMerge merge(baseRow(), theirs,
                         edited(baseRow(), {{QStringLiteral("target"), QStringLiteral("GET https://c/")}}));
    QCOMPARE(merge.merged().updatedAt, theirs.updatedAt);
    QCOMPARE(merge.key(), QStringLiteral("WEATHER"));
}

void TestRowMerge::sameValuesNeedNoMerge()
{
    // A write that went through before a failure: the server holds exactly the edit.
    const Row mine = edited(baseRow(), {{QStringLiteral("category"), QStringLiteral("x")}});
    const RowMerge merge(baseRow(), edited(mine, {}, QStringLiteral("2026-04-04T00:00:00.000Z")), mine);
    QVERIFY(merge.isEmpty());
}

void TestRowMerge::choosingAnUnofferedFieldIsRefused()
{
    RowMerge merge(baseRow(), baseRow(),
                   edited(baseRow(), {{QStringLiteral("category"), QStringLiteral("x")}}));
    QVERIFY(!merge.choose(QStringLiteral("target"), RowMerge::Side::Mine));
    QVERIFY(!merge.choose(QStringLiteral("updated_at"), RowMerge::Side::Mine));
}

void TestRowMerge::longTextShowsTheChangedLines()
{
    QStringList lines;
    for (int i = 1; i <= 20; ++i)
        lines.append(QStringLiteral("line %1").arg(i));
    const QString base = lines.join(u'\n');
    lines[9] = QStringLiteral("line ten");
    const QString text = RowMerge::changesFrom(base, lines.join(u'\n'));
    QVERIFY2(text.contains(QStringLiteral("- line 10\n+ line ten")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("  … 7 unchanged lines")), qPrintable(text));
    QVERIFY2(!text.contains(QStringLiteral("line 2\n")), qPrintable(text));

    Row base3 = baseRow();
    Row theirs = edited(base3, {{QStringLiteral("content"), base}});
    const RowMerge merge(base3, theirs, base3);
    QVERIFY(RowMerge::isMultiLine(merge.fields().first()));
}

QTEST_GUILESS_MAIN(TestRowMerge)
#include "tst_rowmerge.moc"
