#include "dispatch/invoke/directoryledger.h"
#include "dispatch/invoke/standarddispatcher.h"
#include "models/directorydocument.h"
#include "tests/views/viewtestsupport.h"
#include "views/invoke/argumentformpanel.h"
#include "views/invoke/shapepreviewpanel.h"
#include "views/invoke/shaperequestview.h"

#include <QClipboard>
#include <QGuiApplication>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTableWidget>

// The shape preview against a real SQLite file and the real dispatcher: typing arguments,
// editing the row unsaved, and making sure a secret set in the environment shows nowhere.
class TestShapePreviewPanel : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void cleanup();

    void typedArgumentsRenderTheUrlAndMissingSecretNote();
    void unsavedEditRerendersAndNeverShowsTheSecret();
    void rawBodyAndFieldsFollowEachOther();
    void fnRowShowsBuiltinAndArgs();
    void changedArgsKeepValuesByIndex();

private:
    static constexpr const char *tokenName = "CAPDESK_TEST_TOKEN";
    static QString secret() { return QStringLiteral("tok-9f8e7d6c5b4a-secret"); }

    QLineEdit *urlEdit() const { return m_panel->findChild<QLineEdit *>(QStringLiteral("shapeUrl")); }
    QString notesText() const
    {
        QStringList notes;
        for (const QLabel *label : m_panel->findChildren<QLabel *>(QStringLiteral("shapeNote")))
            notes << label->text();
        return notes.join(u'\n');
    }
    // Every text the panel shows, to look for a secret in.
    QStringList allTexts() const
    {
        QStringList texts;
        for (const QLabel *label : m_panel->findChildren<QLabel *>())
            texts << label->text() << label->toolTip();
        for (const QLineEdit *edit : m_panel->findChildren<QLineEdit *>())
            texts << edit->text();
        for (const QPlainTextEdit *edit : m_panel->findChildren<QPlainTextEdit *>())
            texts << edit->toPlainText();
        for (const QTableWidget *table : m_panel->findChildren<QTableWidget *>()) {
            for (int row = 0; row < table->rowCount(); ++row) {
                for (int column = 0; column < table->columnCount(); ++column) {
                    if (const QTableWidgetItem *item = table->item(row, column))
                        texts << item->text() << item->toolTip();
                }
            }
        }
        return texts;
    }
    QString headerValue(const QString &name) const
    {
        const auto *table = m_panel->findChild<QTableWidget *>(QStringLiteral("shapeHeaders"));
        for (int row = 0; row < table->rowCount(); ++row) {
            if (table->item(row, 0) && table->item(row, 0)->text() == name && table->item(row, 1))
                return table->item(row, 1)->text();
        }
        return {};
    }

    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<DirectoryDocument> m_document;
    std::unique_ptr<StandardDispatcher> m_dispatcher;
    std::unique_ptr<ShapePreviewPanel> m_panel;
};

void TestShapePreviewPanel::init()
{
    qunsetenv(tokenName);
    m_dir = std::make_unique<QTemporaryDir>();
    Row weather = makeRow(QStringLiteral("WEATHER"), QStringLiteral("http"),
                          QStringLiteral("GET http://127.0.0.1:9/v1/forecast?latitude=$1&longitude=$2"),
                          QStringLiteral("weather"),
                          QStringLiteral("# WHAT: the forecast\n# ARGS: $1=latitude | $2=longitude\n"));
    weather.auth = QStringLiteral("bearer:CAPDESK_TEST_TOKEN");
    const Row upper = makeRow(QStringLiteral("SHOUT"), QStringLiteral("fn"), QStringLiteral("upper"),
                              QString(), QStringLiteral("# ARGS: $1+=text\n[\"$1+\"]\n"));
    auto store = openStoreWithRows(m_dir->filePath(QStringLiteral("d.db")), {weather, upper});
    QVERIFY(store);
    m_dispatcher = std::make_unique<StandardDispatcher>(
        store, std::make_shared<DirectoryLedger>(store, DirectoryLedger::KeyPlacement::FileOnly));
    m_document = std::make_unique<DirectoryDocument>(store);
    QVERIFY(!m_document->load().isError());
    m_panel = std::make_unique<ShapePreviewPanel>(*m_dispatcher);
    m_panel->setDocument(m_document.get());
    m_panel->resize(700, 600);
    m_panel->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_panel.get()));
}

void TestShapePreviewPanel::cleanup()
{
    m_panel.reset();
    m_document.reset();
    m_dispatcher.reset();
    m_dir.reset();
    qunsetenv(tokenName);
}

void TestShapePreviewPanel::typedArgumentsRenderTheUrlAndMissingSecretNote()
{
    m_panel->showRow(QStringLiteral("WEATHER"));
    QLineEdit *latitude = m_panel->argumentForm()->argumentEdit(1);
    QLineEdit *longitude = m_panel->argumentForm()->argumentEdit(2);
    QVERIFY(latitude && longitude);
    QVERIFY(!m_panel->argumentForm()->argumentEdit(3));

    QTest::keyClicks(latitude, QStringLiteral("37.77"));
    QTest::keyClicks(longitude, QStringLiteral("-122.42"));
    QCOMPARE(m_panel->currentBody(), QStringLiteral("37.77|-122.42"));
    QTRY_COMPARE(urlEdit()->text(),
                 QStringLiteral("http://127.0.0.1:9/v1/forecast?latitude=37.77&longitude=-122.42"));
    QVERIFY2(notesText().contains(QStringLiteral("CAPDESK_TEST_TOKEN is not set")), qPrintable(notesText()));
    QCOMPARE(headerValue(QStringLiteral("Authorization")), QString());
}

void TestShapePreviewPanel::unsavedEditRerendersAndNeverShowsTheSecret()
{
    qputenv(tokenName, secret().toUtf8());
    m_panel->showRow(QStringLiteral("WEATHER"));
    QTest::keyClicks(m_panel->argumentForm()->argumentEdit(1), QStringLiteral("1"));
    QTest::keyClicks(m_panel->argumentForm()->argumentEdit(2), QStringLiteral("2"));
    QTRY_COMPARE(urlEdit()->text(), QStringLiteral("http://127.0.0.1:9/v1/forecast?latitude=1&longitude=2"));

    m_document->setField(QStringLiteral("WEATHER"), QStringLiteral("target"),
                         QStringLiteral("GET http://127.0.0.1:9/v2/forecast?lat=$1&lon=$2"));
    QVERIFY(m_document->isRowModified(QStringLiteral("WEATHER")));
    QTRY_COMPARE(urlEdit()->text(), QStringLiteral("http://127.0.0.1:9/v2/forecast?lat=1&lon=2"));
    QCOMPARE(headerValue(QStringLiteral("Authorization")), QStringLiteral("[redacted]"));
    QVERIFY(!notesText().contains(QStringLiteral("is not set")));

    for (const QString &text : allTexts())
        QVERIFY2(!text.contains(secret()), qPrintable(text));

    QGuiApplication::clipboard()->clear();
    auto *copy = m_panel->findChild<QPushButton *>(QStringLiteral("copyCurl"));
    QVERIFY(copy && copy->isEnabled());
    QTest::mouseClick(copy, Qt::LeftButton);
    const QString clip = QGuiApplication::clipboard()->text();
    // The credential as the shell variable the secret is named by, never its value.
    QCOMPARE(clip, QStringLiteral("curl -sS -g -X GET 'http://127.0.0.1:9/v2/forecast?lat=1&lon=2' "
                                  "-H \"Authorization: Bearer $CAPDESK_TEST_TOKEN\""));
    QVERIFY(!clip.contains(secret()));
}

void TestShapePreviewPanel::rawBodyAndFieldsFollowEachOther()
{
    m_panel->showRow(QStringLiteral("WEATHER"));
    QLineEdit *raw = m_panel->argumentForm()->rawBodyEdit();
    QTest::keyClicks(raw, QStringLiteral("5|6"));
    QCOMPARE(m_panel->argumentForm()->argumentEdit(1)->text(), QStringLiteral("5"));
    QCOMPARE(m_panel->argumentForm()->argumentEdit(2)->text(), QStringLiteral("6"));
    QTest::keyClicks(m_panel->argumentForm()->argumentEdit(1), QStringLiteral("0"));
    QCOMPARE(raw->text(), QStringLiteral("50|6"));
    QTRY_COMPARE(urlEdit()->text(), QStringLiteral("http://127.0.0.1:9/v1/forecast?latitude=50&longitude=6"));
}

void TestShapePreviewPanel::fnRowShowsBuiltinAndArgs()
{
    m_panel->showRow(QStringLiteral("SHOUT"));
    QVERIFY(m_panel->argumentForm()->spec().lastTakesRest());
    QTest::keyClicks(m_panel->argumentForm()->argumentEdit(1), QStringLiteral("a|b"));
    const auto *body = m_panel->findChild<QPlainTextEdit *>(QStringLiteral("shapeBody"));
    QTRY_COMPARE(body->toPlainText(), QStringLiteral("1. a|b"));
    QVERIFY(m_panel->findChild<QLabel *>(QStringLiteral("shapeMethod"))
                ->text()
                .contains(QStringLiteral("upper")));
    QVERIFY(!m_panel->findChild<QPushButton *>(QStringLiteral("copyCurl"))->isEnabled());
}

void TestShapePreviewPanel::changedArgsKeepValuesByIndex()
{
    m_panel->showRow(QStringLiteral("WEATHER"));
    QTest::keyClicks(m_panel->argumentForm()->argumentEdit(1), QStringLiteral("10"));
    QTest::keyClicks(m_panel->argumentForm()->argumentEdit(2), QStringLiteral("20"));
    m_document->setField(QStringLiteral("WEATHER"), QStringLiteral("content"),
                         QStringLiteral("# ARGS: $1=lat | $2=lon | $3=units\n"));
    QLineEdit *units = m_panel->argumentForm()->argumentEdit(3);
    QVERIFY(units);
    QCOMPARE(m_panel->argumentForm()->argumentEdit(1)->text(), QStringLiteral("10"));
    QCOMPARE(m_panel->argumentForm()->argumentEdit(2)->text(), QStringLiteral("20"));
    QCOMPARE(units->text(), QString());
}

QTEST_MAIN(TestShapePreviewPanel)
#include "tst_shapepreviewpanel.moc"
