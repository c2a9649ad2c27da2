#include "dispatch/lint/rules/directoryindex.h"

#include <QTest>

using namespace Qt::StringLiterals;

// The reverse edges: which rows name a key, once each, whichever kind of edge (flow step,
// include) leads there, kept right as a row's edges change or the row goes.
class TestDirectoryIndex final : public QObject
{
    Q_OBJECT

private slots:
    void referencing_data()
    {
        QTest::addColumn<QList<QStringList>>("steps"); // per row A, B: flow keys, then includes
        QTest::addColumn<QStringList>("ofTarget");

        QTest::addRow("a flow step") << QList<QStringList>{{u"T"_s}, {}, {}, {}} << QStringList{u"A"_s};
        QTest::addRow("an include") << QList<QStringList>{{}, {u"T"_s}, {}, {}} << QStringList{u"A"_s};
        QTest::addRow("both kinds, listed once")
            << QList<QStringList>{{u"T"_s}, {u"T"_s}, {}, {}} << QStringList{u"A"_s};
        QTest::addRow("a step named twice, listed once")
            << QList<QStringList>{{u"T"_s, u"X"_s, u"T"_s}, {}, {}, {}} << QStringList{u"A"_s};
        QTest::addRow("two rows, sorted")
            << QList<QStringList>{{}, {u"T"_s}, {u"T"_s}, {}} << QStringList{u"A"_s, u"B"_s};
        QTest::addRow("not named") << QList<QStringList>{{u"X"_s}, {}, {}, {u"Y"_s}} << QStringList{};
    }
    void referencing()
    {
        QFETCH(QList<QStringList>, steps);
        QFETCH(QStringList, ofTarget);
        DirectoryIndex index;
        index.update(u"B"_s, steps[2], steps[3]);
        index.update(u"A"_s, steps[0], steps[1]);
        QCOMPARE(index.referencing(u"T"_s), ofTarget);
        QCOMPARE(index.reaching({u"T"_s}), QSet<QString>(ofTarget.cbegin(), ofTarget.cend()));
    }

    void aReferrerStaysWhileOneKindOfEdgeLeadsThere()
    {
        DirectoryIndex index;
        index.update(u"A"_s, {u"T"_s}, {u"T"_s});
        index.update(u"A"_s, {}, {u"T"_s});
        QCOMPARE(index.referencing(u"T"_s), QStringList{u"A"_s});
        index.update(u"A"_s, {u"T"_s}, {});
        QCOMPARE(index.referencing(u"T"_s), QStringList{u"A"_s});
        index.update(u"A"_s, {u"U"_s, u"U"_s}, {});
        QCOMPARE(index.referencing(u"T"_s), QStringList{});
        QCOMPARE(index.referencing(u"U"_s), QStringList{u"A"_s});
        QVERIFY(index.remove(u"A"_s));
        QCOMPARE(index.referencing(u"U"_s), QStringList{});
    }

    void reachingFollowsReferrersOfReferrers()
    {
        DirectoryIndex index;
        index.update(u"A"_s, {u"B"_s}, {});
        index.update(u"B"_s, {}, {u"C"_s});
        index.update(u"D"_s, {u"C"_s}, {u"C"_s});
        QCOMPARE(index.reaching({u"C"_s}), (QSet<QString>{u"A"_s, u"B"_s, u"D"_s}));
        index.update(u"B"_s, {}, {});
        QCOMPARE(index.reaching({u"C"_s}), QSet<QString>{u"D"_s});
    }
};

QTEST_MAIN(TestDirectoryIndex)
#include "tst_directoryindex.moc"
