#include "dispatch/contract/contractdocument.h"
#include "dispatch/contract/mcpprojection.h"
#include "models/directorydocument.h"
#include "tests/support/lintfixture.h"
#include "views/invoke/contractview.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace LintFixture;

// The Contract tab: the rendered document and what it costs, following edits.
class TestContractView : public QObject
{
    Q_OBJECT

private slots:
    void showsTheDocumentWithItsSize();
};

void TestContractView::showsTheDocumentWithItsSize()
{
    QTemporaryDir dir;
    auto store = openStore(dir.filePath(QStringLiteral("d.db")), {goodRow(QStringLiteral("ECHO_A"))});
    QVERIFY(store);
    DirectoryDocument document(store);
    QVERIFY(!document.load().isError());
    ContractView view;
    view.setDocument(&document);
    view.showRow(QStringLiteral("ECHO_A"));
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));

    const QString expected = ContractDocument::render(*document.row(QStringLiteral("ECHO_A")));
    QCOMPARE(view.markdown(), expected);
    const QString size = QStringLiteral("%1 bytes · ~%2 tokens")
                             .arg(QLocale().toString(expected.toUtf8().size()),
                                  QLocale().toString(ContractDocument::estimateTokens(expected)));
    QCOMPARE(view.sizeText(), size);
    // Below it, the row as an MCP client is handed it.
    const QJsonObject tool = McpProjection::tool(*document.row(QStringLiteral("ECHO_A")));
    QCOMPARE(QJsonDocument::fromJson(view.toolText().toUtf8()).object(), tool);
    const qint64 toolBytes = QJsonDocument(tool).toJson(QJsonDocument::Compact).size();
    QCOMPARE(view.toolSizeText(),
             QStringLiteral("As an MCP tool: %1 bytes · ~%2 tokens")
                 .arg(QLocale().toString(toolBytes), QLocale().toString((toolBytes + 3) / 4)));

    // An edit re-renders after the typing pause.
    document.setField(QStringLiteral("ECHO_A"), QStringLiteral("content"),
                      document.row(QStringLiteral("ECHO_A"))
                          ->content.replace(QStringLiteral("Echoes"), QStringLiteral("Repeats")));
    QTRY_VERIFY(view.markdown().contains(QLatin1String("Repeats")));
    QVERIFY(view.sizeText() != size);

    // A disabled row is no tool, and the tab says why.
    document.setField(QStringLiteral("ECHO_A"), QStringLiteral("enabled"), false);
    QTRY_COMPARE(view.toolSizeText(), QStringLiteral("As an MCP tool: not listed"));
    QVERIFY(view.toolText().contains(QLatin1String("disabled")));

    view.showRow(QString());
    QVERIFY(view.sizeText().isEmpty());
    QVERIFY(view.toolText().isEmpty());
}

QTEST_MAIN(TestContractView)
#include "tst_contractview.moc"
