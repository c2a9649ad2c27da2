#include "dispatch/mcp/mcptoolcatalog.h"
#include "dispatch/store/sampledirectory.h"
#include "dispatch/store/sqldirectorystore.h"
#include "models/mcptoollistmodel.h"
#include "views/mcp/mcptoolsdialog.h"

#include <QComboBox>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

// Tools → MCP Tools…: the list an MCP client is handed, per projection, with its cost.
class TestMcpToolsDialog : public QObject
{
    Q_OBJECT

private slots:
    void showsWhatAClientIsHanded();
};

void TestMcpToolsDialog::showsWhatAClientIsHanded()
{
    QTemporaryDir dir;
    auto opened = SqlDirectoryStore::open(dir.filePath(QStringLiteral("d.db")));
    QVERIFY(opened.ok());
    std::shared_ptr<SqlDirectoryStore> store = opened.value();
    QVERIFY(!store->importRows(SampleDirectory::rows().value()).isError());
    const QJsonArray expected = McpToolCatalog(store, nullptr, {}).tools().value();

    McpToolsDialog dialog(store);
    QSignalSpy loaded(dialog.model(), &McpToolListModel::loaded);
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    QTRY_COMPARE_WITH_TIMEOUT(loaded.size(), 1, 10000);
    QCOMPARE(loaded.first().at(0).toString(), QString());
    QCOMPARE(dialog.model()->rowCount(), expected.size());
    const McpCost cost = McpCost::of(expected);
    QVERIFY2(dialog.summaryText().startsWith(
                 QStringLiteral("%1 tools · %2 bytes")
                     .arg(QLocale().toString(expected.size()), QLocale().toString(cost.bytes))),
             qPrintable(dialog.summaryText()));
    // Sorted by size: the first row is the costliest tool, and its JSON is shown.
    const QString first = dialog.table()->model()->index(0, McpToolListModel::NameColumn).data().toString();
    qint64 largest = 0;
    QString costliest;
    for (const McpCost::Tool &tool : cost.tools) {
        if (tool.bytes > largest) {
            largest = tool.bytes;
            costliest = tool.name;
        }
    }
    QCOMPARE(first, costliest);
    QCOMPARE(QJsonDocument::fromJson(dialog.previewText().toUtf8())
                 .object()
                 .value(QStringLiteral("name"))
                 .toString(),
             costliest);

    loaded.clear();
    dialog.projectionCombo()->setCurrentIndex(1);
    QTRY_COMPARE_WITH_TIMEOUT(loaded.size(), 1, 10000);
    QCOMPARE(dialog.model()->rowCount(), 3);
    QVERIFY(dialog.summaryText().startsWith(QStringLiteral("3 tools")));
}

QTEST_MAIN(TestMcpToolsDialog)
#include "tst_mcptoolsdialog.moc"
