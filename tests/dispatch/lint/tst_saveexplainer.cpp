#include "dispatch/lint/saveexplainer.h"

#include "tests/support/lintfixture.h"

#include <QJsonArray>
#include <QTest>

// SaveExplainer: the refusals the hygiene gate would make on saving these drafts, judged
// against the directory with the drafts laid over it, and a store's refusal read back.
class TestSaveExplainer final : public QObject
{
    Q_OBJECT

private slots:
    void explainJudgesEachDraftAsTheGateWould_data();
    void explainJudgesEachDraftAsTheGateWould();
    void storeRefusalsKeepErrorsRowByRow();
    void otherStoreErrorsExplainNothing();
};

namespace {

using LintFixture::flowRow;
using LintFixture::goodRow;
using LintFixture::undocumentedRow;

QString keysOf(const QList<SaveRefusal> &refusals)
{
    QStringList keys;
    for (const SaveRefusal &refusal : refusals)
        keys.append(QStringLiteral("%1%2").arg(refusal.key,
                                               refusal.existing ? QStringLiteral("(stored)") : QString()));
    return keys.join(u' ');
}

} // namespace

void TestSaveExplainer::explainJudgesEachDraftAsTheGateWould_data()
{
    QTest::addColumn<QList<Row>>("stored");
    QTest::addColumn<QList<SaveDraft>>("drafts");
    QTest::addColumn<QString>("refused");

    const Row echo = goodRow(QStringLiteral("ECHO"));
    const Row bad = undocumentedRow(QStringLiteral("BAD"));
    Row badEdited = bad;
    badEdited.category = QStringLiteral("other");
    QTest::addRow("no drafts") << QList<Row>{echo} << QList<SaveDraft>{} << QString();
    QTest::addRow("a compliant new row")
        << QList<Row>{echo}
        << QList<SaveDraft>{{QStringLiteral("NEW"), std::nullopt, goodRow(QStringLiteral("NEW"))}}
        << QString();
    QTest::addRow("a new row with errors")
        << QList<Row>{echo}
        << QList<SaveDraft>{{QStringLiteral("NEW"), std::nullopt, undocumentedRow(QStringLiteral("NEW"))}}
        << QStringLiteral("NEW");
    QTest::addRow("a compliant row losing its docs")
        << QList<Row>{echo}
        << QList<SaveDraft>{{QStringLiteral("ECHO"), echo, undocumentedRow(QStringLiteral("ECHO"))}}
        << QStringLiteral("ECHO(stored)");
    QTest::addRow("an old non-compliant row stays editable")
        << QList<Row>{echo, bad} << QList<SaveDraft>{{QStringLiteral("BAD"), bad, badEdited}} << QString();
    QTest::addRow("a delete passes") << QList<Row>{echo}
                                     << QList<SaveDraft>{{QStringLiteral("ECHO"), echo, std::nullopt}}
                                     << QString();
    QTest::addRow("a new flow and the new row it names")
        << QList<Row>{echo}
        << QList<SaveDraft>{{QStringLiteral("FLOW"), std::nullopt,
                             flowRow(QStringLiteral("FLOW"), QStringLiteral("ECHO > NEXT"))},
                            {QStringLiteral("NEXT"), std::nullopt, goodRow(QStringLiteral("NEXT"))}}
        << QString();
    QTest::addRow("a new flow naming a row that does not exist")
        << QList<Row>{echo}
        << QList<SaveDraft>{{QStringLiteral("FLOW"), std::nullopt,
                             flowRow(QStringLiteral("FLOW"), QStringLiteral("ECHO > NOPE"))}}
        << QStringLiteral("FLOW");
}

void TestSaveExplainer::explainJudgesEachDraftAsTheGateWould()
{
    QFETCH(QList<Row>, stored);
    QFETCH(QList<SaveDraft>, drafts);
    const QList<SaveRefusal> refusals = SaveExplainer::explain(drafts, DirectoryIndex::build(stored));
    QTEST(keysOf(refusals), "refused");
    for (const SaveRefusal &refusal : refusals) {
        QVERIFY(!refusal.findings.isEmpty());
        for (const LintFinding &finding : refusal.findings)
            QVERIFY2(finding.isError(), qPrintable(finding.code));
        QVERIFY(SaveExplainer::describe(refusals).contains(refusal.key));
    }
}

void TestSaveExplainer::storeRefusalsKeepErrorsRowByRow()
{
    auto finding = [](const QString &key, const QString &code, const QString &severity) {
        return QJsonObject{{QStringLiteral("key"), key},
                           {QStringLiteral("code"), code},
                           {QStringLiteral("name"), code},
                           {QStringLiteral("severity"), severity},
                           {QStringLiteral("field"), QStringLiteral("content")},
                           {QStringLiteral("message"), QStringLiteral("fix it")}};
    };
    const StoreError error = StoreError::make(
        StoreError::Kind::Invalid, QStringLiteral("refused"),
        QJsonArray{finding(QStringLiteral("A"), QStringLiteral("H010"), QStringLiteral("error")),
                   finding(QStringLiteral("A"), QStringLiteral("H015"), QStringLiteral("warning")),
                   finding(QStringLiteral("B"), QStringLiteral("H011"), QStringLiteral("error")),
                   finding(QStringLiteral("A"), QStringLiteral("H012"), QStringLiteral("error"))});
    const QList<SaveRefusal> refusals =
        SaveExplainer::fromStoreError(error, [](const QString &key) { return key == QLatin1String("A"); });
    QCOMPARE(keysOf(refusals), QStringLiteral("A(stored) B"));
    QCOMPARE(refusals.at(0).findings.size(), 2);
    QCOMPARE(refusals.at(0).findings.at(1).code, QStringLiteral("H012"));
    QCOMPARE(refusals.at(1).findings.size(), 1);
    const QString text = SaveExplainer::describe(refusals);
    QVERIFY2(text.contains(QLatin1String("A was compliant before")), qPrintable(text));
    QVERIFY2(text.contains(QLatin1String("B is new")), qPrintable(text));
    QVERIFY(!text.contains(QLatin1String("H015")));
}

void TestSaveExplainer::otherStoreErrorsExplainNothing()
{
    const auto stored = [](const QString &) { return true; };
    QVERIFY(SaveExplainer::fromStoreError(StoreError::none(), stored).isEmpty());
    QVERIFY(SaveExplainer::fromStoreError(
                StoreError::make(StoreError::Kind::Conflict, QStringLiteral("changed")), stored)
                .isEmpty());
    QVERIFY(SaveExplainer::fromStoreError(
                StoreError::make(StoreError::Kind::Invalid, QStringLiteral("no details")), stored)
                .isEmpty());
}

QTEST_GUILESS_MAIN(TestSaveExplainer)
#include "tst_saveexplainer.moc"
