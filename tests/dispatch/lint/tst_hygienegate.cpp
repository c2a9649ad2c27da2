#include "dispatch/lint/hygienegate.h"
#include "dispatch/store/sqldirectorystore.h"

#include <QJsonArray>
#include <QTemporaryDir>
#include <QTest>

// The save gate (SPEC §8): create and replace are strict and name every failing rule; a
// patch (and the editor's Replace) is refused only when it makes a compliant row
// non-compliant; imports are not gated.
class TestHygieneGate : public QObject
{
    Q_OBJECT

private slots:
    void checkCreate_data();
    void checkCreate();
    void checkPatch_data();
    void checkPatch();
    void putRefusedNamingAllCodes();
    void patchRegressionRefused();
    void patchOfNonCompliantRowAllowed();
    void editorReplaceIsNonRegressionAndCreateStrict();
    void importIsNotGatedAndIndexFollowsWrites();
};

namespace {

Row goodRow(const QString &key = QStringLiteral("ECHO_IT"))
{
    Row row;
    row.key = key;
    row.type = QStringLiteral("fn");
    row.target = QStringLiteral("echo");
    row.category = QStringLiteral("tools");
    row.content = QStringLiteral("# WHAT: Echo the text.\n# WHEN_TO_USE: testing.\n# ARGS: $1=text\n"
                                 "# EX: [%1]hi[/%1]\n# OUTPUT: the text\n[\"$1\"]")
                      .arg(key);
    return row;
}

// Breaks H010, H011 and H022 at once.
Row badRow(const QString &key = QStringLiteral("ECHO_IT"))
{
    Row row = goodRow(key);
    row.target = QStringLiteral("no_such_builtin");
    row.content = QStringLiteral("# ARGS: $1=text\n# EX: [%1]hi[/%1]\n# OUTPUT: the text\n[\"$1\"]").arg(key);
    return row;
}

QStringList codesOf(const QJsonArray &details)
{
    QStringList codes;
    for (const QJsonValue &value : details)
        codes.append(value.toObject().value(QStringLiteral("code")).toString());
    return codes;
}

std::shared_ptr<SqlDirectoryStore> openStore(const QTemporaryDir &dir)
{
    auto store = SqlDirectoryStore::open(dir.filePath(QStringLiteral("d.db")));
    return store.ok() ? store.value() : nullptr;
}

} // namespace

void TestHygieneGate::checkCreate_data()
{
    QTest::addColumn<Row>("row");
    QTest::addColumn<QStringList>("codes");

    QTest::addRow("compliant") << goodRow() << QStringList();
    QTest::addRow("three rules") << badRow()
                                 << QStringList{QStringLiteral("H010"), QStringLiteral("H011"),
                                                QStringLiteral("H022")};
    Row warningOnly = goodRow();
    warningOnly.category.clear();
    QTest::addRow("warnings do not refuse") << warningOnly << QStringList();
}

void TestHygieneGate::checkCreate()
{
    QFETCH(Row, row);
    QFETCH(QStringList, codes);
    const StoreError error = HygieneGate::checkCreate(row, DirectoryIndex::build({}));
    QCOMPARE(error.isError(), !codes.isEmpty());
    QCOMPARE(codesOf(error.details), codes);
    for (const QString &code : codes)
        QVERIFY2(error.message.contains(code), qPrintable(error.message));
    if (error.isError())
        QCOMPARE(error.kind, StoreError::Kind::Invalid);
}

void TestHygieneGate::checkPatch_data()
{
    QTest::addColumn<Row>("before");
    QTest::addColumn<Row>("after");
    QTest::addColumn<bool>("refused");

    Row edited = goodRow();
    edited.category = QStringLiteral("text");
    QTest::addRow("compliant to compliant") << goodRow() << edited << false;
    QTest::addRow("compliant to non-compliant") << goodRow() << badRow() << true;
    Row stillBad = badRow();
    stillBad.category = QStringLiteral("text");
    QTest::addRow("non-compliant stays so") << badRow() << stillBad << false;
    QTest::addRow("non-compliant fixed") << badRow() << goodRow() << false;
}

void TestHygieneGate::checkPatch()
{
    QFETCH(Row, before);
    QFETCH(Row, after);
    QFETCH(bool, refused);
    const StoreError error = HygieneGate::checkPatch(before, after, DirectoryIndex::build({before}));
    QCOMPARE(error.isError(), refused);
    if (refused)
        QVERIFY2(error.message.contains(QStringLiteral("was compliant before")), qPrintable(error.message));
}

void TestHygieneGate::putRefusedNamingAllCodes()
{
    QTemporaryDir dir;
    const auto store = openStore(dir);
    QVERIFY(store);
    const StoreResult<WriteOutcome> created = store->put(badRow());
    QVERIFY(!created.ok());
    QCOMPARE(created.error().kind, StoreError::Kind::Invalid);
    QCOMPARE(codesOf(created.error().details),
             (QStringList{QStringLiteral("H010"), QStringLiteral("H011"), QStringLiteral("H022")}));
    QVERIFY(!store->row(QStringLiteral("ECHO_IT")).ok());

    QVERIFY(store->put(goodRow()).ok());
    const StoreResult<WriteOutcome> replaced = store->put(badRow());
    QVERIFY(!replaced.ok());
    QCOMPARE(codesOf(replaced.error().details).size(), 3);
    QVERIFY(!store->replace(badRow()).ok());
    QCOMPARE(store->row(QStringLiteral("ECHO_IT")).value().target, QStringLiteral("echo"));
}

void TestHygieneGate::patchRegressionRefused()
{
    QTemporaryDir dir;
    const auto store = openStore(dir);
    QVERIFY(store);
    QVERIFY(store->create(goodRow()).ok());
    const StoreResult<WriteOutcome> patched = store->patch(
        QStringLiteral("ECHO_IT"), {{QStringLiteral("target"), QStringLiteral("no_such_builtin")}});
    QVERIFY(!patched.ok());
    QVERIFY(patched.error().message.contains(QStringLiteral("was compliant before")));
    QCOMPARE(codesOf(patched.error().details), QStringList{QStringLiteral("H022")});
    QCOMPARE(store->row(QStringLiteral("ECHO_IT")).value().target, QStringLiteral("echo"));
}

void TestHygieneGate::patchOfNonCompliantRowAllowed()
{
    QTemporaryDir dir;
    const auto store = openStore(dir);
    QVERIFY(store);
    QVERIFY(!store->importRows({badRow()}).isError());
    const StoreResult<WriteOutcome> patched =
        store->patch(QStringLiteral("ECHO_IT"), {{QStringLiteral("category"), QStringLiteral("text")}});
    QVERIFY2(patched.ok(), qPrintable(patched.error().message));
    QCOMPARE(store->row(QStringLiteral("ECHO_IT")).value().category, QStringLiteral("text"));
}

void TestHygieneGate::editorReplaceIsNonRegressionAndCreateStrict()
{
    QTemporaryDir dir;
    const auto store = openStore(dir);
    QVERIFY(store);
    QVERIFY(!store->importRows({badRow(QStringLiteral("OLD_ROW"))}).isError());
    Row old = store->row(QStringLiteral("OLD_ROW")).value();
    old.category = QStringLiteral("text");
    QVERIFY(!store->apply({RowChange::replace(old)}).isError());

    QVERIFY(!store->apply({RowChange::create(goodRow())}).isError());
    Row regress = store->row(QStringLiteral("ECHO_IT")).value();
    regress.target = QStringLiteral("no_such_builtin");
    QVERIFY(store->apply({RowChange::replace(regress)}).isError());

    const StoreError refused = store->apply({RowChange::create(badRow(QStringLiteral("NEW_ROW")))});
    QVERIFY(refused.isError());
    QCOMPARE(codesOf(refused.details).size(), 3);
}

void TestHygieneGate::importIsNotGatedAndIndexFollowsWrites()
{
    QTemporaryDir dir;
    const auto store = openStore(dir);
    QVERIFY(store);
    Row flow = goodRow(QStringLiteral("RUN_IT"));
    flow.type = QStringLiteral("flow");
    flow.target.clear();
    flow.content =
        QStringLiteral("# WHAT: Run.\n# WHEN_TO_USE: testing.\n# ARGS: $1=text\n# EX: [RUN_IT]hi[/RUN_IT]\n"
                       "LATER_ROW: $1");
    // The step names a row that does not exist yet: refused, then accepted once it does.
    QVERIFY(store->create(flow).error().message.contains(QStringLiteral("H024")));
    QVERIFY(store->create(goodRow(QStringLiteral("LATER_ROW"))).ok());
    QVERIFY2(store->create(flow).ok(), "the index did not learn of LATER_ROW");
    // Deleting the step's row makes the flow non-compliant; a later patch of the flow
    // (compliant before? no) is allowed.
    QVERIFY(!store->remove(QStringLiteral("LATER_ROW")).isError());
    QVERIFY(store->patch(QStringLiteral("RUN_IT"), {{QStringLiteral("category"), QStringLiteral("x")}}).ok());
}

QTEST_GUILESS_MAIN(TestHygieneGate)
#include "tst_hygienegate.moc"
