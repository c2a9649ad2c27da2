#include "dispatch/secrets/keychainstore.h"
#include "dispatch/secrets/memorysecrets.h"
#include "models/secretlistmodel.h"
#include "tests/support/guistallprobe.h"
#include "tests/support/processrun.h"
#include "tests/support/secretservicepause.h"
#include "tests/views/viewtestsupport.h"
#include "views/secrets/secretsdialog.h"

#include <QElapsedTimer>

#include <QAbstractButton>
#include <QLabel>
#include <QLineEdit>
#include <QProcessEnvironment>
#include <QPushButton>
#include <QRandomGenerator>
#include <QSignalSpy>
#include <QTableView>

using namespace Qt::StringLiterals;

// The Secrets dialog on a real directory file and, where CI provides one, the real
// gnome-keyring (packaging/capdesk test). Without a Secret Service only the keychain parts
// are skipped; the cases without a keychain run in a child of this test whose session bus
// does not exist, so they run whether or not this session has one.
class TestSecretsDialog : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();
    void cleanupTestCase();

    void listsNamesWithRowCounts();
    void environmentValueShowsAsYes();
    void setThroughMaskedFieldThenDelete();
    void deleteAsksFirst();
    void aSlowKeychainNeverStopsTheWindow();
    void keychainValueReplacesOneKeptInMemory();
    void unavailableKeychainIsSaidPlainly();
    void withoutKeychainValuesAreKeptInMemory();

private:
    // With a Secret Service in this session, runs the current case in a child of this test
    // whose session bus does not exist and answers true: the caller returns. Without one,
    // answers false: the caller runs the case itself.
    bool ranWithoutKeychainInAChild();
    std::unique_ptr<SecretsDialog> makeDialog();
    int rowOf(const QString &name) const;
    QString cell(const QString &name, int column) const;
    // Every text any widget of the dialog shows or holds.
    QStringList visibleTexts() const;

    KeychainStore m_keychain;
    std::shared_ptr<MemorySecrets> m_memory;
    bool m_available = false;
    QString m_why;
    QString m_apiName;
    QString m_envName;
    std::unique_ptr<QTemporaryDir> m_dir;
    std::shared_ptr<SqlDirectoryStore> m_store;
    FakePrompter m_prompter;
    std::unique_ptr<SecretsDialog> m_dialog;
};

void TestSecretsDialog::initTestCase()
{
    m_available = m_keychain.available(&m_why);
    if (!m_available)
        qWarning("keychain parts will be skipped: %s", qPrintable(m_why));
    // Names unique to this run, so a leftover entry of an earlier run cannot answer.
    const QString suffix = QString::number(QRandomGenerator::global()->generate(), 16).toUpper();
    m_apiName = u"CAPDESK_TST_DLG_API_"_s + suffix;
    m_envName = u"CAPDESK_TST_DLG_ENV_"_s + suffix;
}

void TestSecretsDialog::init()
{
    m_prompter = FakePrompter();
    m_memory = std::make_shared<MemorySecrets>();
    m_dir = std::make_unique<QTemporaryDir>();
    QList<Row> rows = sampleRows();
    auto withAuth = [](Row row, const QString &auth) {
        row.auth = auth;
        return row;
    };
    const QString target = u"GET https://api.example.com/$1"_s;
    rows << withAuth(makeRow(u"A1"_s, u"http"_s, target, u"x"_s), u"bearer:"_s + m_apiName)
         << withAuth(makeRow(u"A2"_s, u"http"_s, target, u"x"_s), u"query:api_key="_s + m_apiName)
         << withAuth(makeRow(u"A3"_s, u"agent"_s, u"grok-4"_s, u"x"_s), u"bearer:"_s + m_apiName)
         << withAuth(makeRow(u"E1"_s, u"http"_s, target, u"x"_s), u"basic:"_s + m_envName)
         << withAuth(makeRow(u"BAD"_s, u"http"_s, target, u"x"_s), u"bearer:sk-pasted-key"_s);
    m_store = openStoreWithRows(m_dir->filePath(u"d.db"_s), rows);
    QVERIFY(m_store);
}

void TestSecretsDialog::cleanup()
{
    m_dialog.reset();
    m_store.reset();
    qunsetenv(m_envName.toLocal8Bit().constData());
}

void TestSecretsDialog::cleanupTestCase()
{
    if (m_available)
        m_keychain.remove(m_apiName);
}

std::unique_ptr<SecretsDialog> TestSecretsDialog::makeDialog()
{
    auto dialog = std::make_unique<SecretsDialog>(m_store, m_keychain, *m_memory, m_prompter);
    dialog->show();
    return dialog;
}

int TestSecretsDialog::rowOf(const QString &name) const
{
    for (int row = 0; row < m_dialog->model()->rowCount(); ++row)
        if (m_dialog->model()->secretAt(row)->name == name)
            return row;
    return -1;
}

QString TestSecretsDialog::cell(const QString &name, int column) const
{
    return m_dialog->model()->index(rowOf(name), column).data().toString();
}

QStringList TestSecretsDialog::visibleTexts() const
{
    QStringList texts{m_dialog->windowTitle()};
    for (const QWidget *widget : m_dialog->findChildren<QWidget *>()) {
        texts << widget->toolTip() << widget->windowTitle() << widget->accessibleName();
        if (const auto *label = qobject_cast<const QLabel *>(widget))
            texts << label->text();
        if (const auto *edit = qobject_cast<const QLineEdit *>(widget))
            texts << edit->text() << edit->displayText() << edit->placeholderText();
        if (const auto *button = qobject_cast<const QAbstractButton *>(widget))
            texts << button->text();
    }
    const QAbstractItemModel *model = m_dialog->model();
    for (int row = 0; row < model->rowCount(); ++row)
        for (int column = 0; column < model->columnCount(); ++column)
            for (int role : {Qt::DisplayRole, Qt::ToolTipRole})
                texts << model->index(row, column).data(role).toString();
    return texts;
}

void TestSecretsDialog::listsNamesWithRowCounts()
{
    m_dialog = makeDialog();
    QCOMPARE(m_dialog->model()->rowCount(), 2);
    QCOMPARE(cell(m_apiName, SecretListModel::RowsColumn), u"3"_s);
    QCOMPARE(cell(m_apiName, SecretListModel::FormsColumn), u"bearer, query:api_key"_s);
    QCOMPARE(cell(m_envName, SecretListModel::RowsColumn), u"1"_s);
    QCOMPARE(cell(m_envName, SecretListModel::FormsColumn), u"basic"_s);
    // The malformed auth is counted, never shown: it may be a pasted credential.
    auto *note = m_dialog->findChild<QLabel *>(u"malformedNote"_s);
    QVERIFY(note && note->isVisible());
    QVERIFY2(note->text().contains(u"1 row"_s), qPrintable(note->text()));
    QVERIFY(!visibleTexts().join(u'\n').contains(u"sk-pasted-key"_s));
}

void TestSecretsDialog::environmentValueShowsAsYes()
{
    qputenv(m_envName.toLocal8Bit().constData(), "user:from-environment");
    m_dialog = makeDialog();
    QCOMPARE(cell(m_envName, SecretListModel::EnvironmentColumn), u"yes"_s);
    QCOMPARE(cell(m_apiName, SecretListModel::EnvironmentColumn), u"no"_s);
    QVERIFY(!visibleTexts().join(u'\n').contains(u"from-environment"_s));
}

void TestSecretsDialog::setThroughMaskedFieldThenDelete()
{
    if (!m_available)
        QSKIP(qPrintable(u"needs a Secret Service: "_s + m_why));
    m_dialog = makeDialog();
    QTRY_COMPARE(cell(m_apiName, SecretListModel::KeychainColumn), u"no"_s);
    QTRY_VERIFY(m_dialog->keychainAvailable());
    // Every row answered: nothing is said to be under way.
    QTRY_VERIFY(!m_dialog->findChild<QLabel *>(u"keychainActivity"_s)->isVisible());

    const QString value =
        u"xai-DIALOGCANARY-"_s + QString::number(QRandomGenerator::global()->generate64(), 16);
    m_dialog->selectName(m_apiName);
    auto *set = m_dialog->findChild<QPushButton *>(u"setValueButton"_s);
    QVERIFY(set->isEnabled());
    QCOMPARE(set->text(), u"Set Value…"_s);
    QTest::mouseClick(set, Qt::LeftButton);
    auto *field = m_dialog->findChild<QLineEdit *>(u"secretValue"_s);
    QVERIFY(field->isVisible());
    QCOMPARE(field->echoMode(), QLineEdit::Password);
    QTest::keyClicks(field, value);
    QVERIFY(!field->displayText().contains(value.left(8)));
    QSignalSpy written(m_dialog.get(), &SecretsDialog::writeFinished);
    QTest::mouseClick(m_dialog->findChild<QPushButton *>(u"storeValueButton"_s), Qt::LeftButton);
    QVERIFY(written.wait());

    QVERIFY2(m_prompter.errors.isEmpty(), qPrintable(m_prompter.errors.join(u'\n')));
    QVERIFY(m_keychain.has(m_apiName));
    QCOMPARE(m_keychain.read(m_apiName).value, value);
    QTRY_COMPARE(cell(m_apiName, SecretListModel::KeychainColumn), u"yes"_s);
    QVERIFY(!field->isVisible());
    QVERIFY(field->text().isEmpty());
    QVERIFY(!field->isUndoAvailable());
    QVERIFY(!visibleTexts().join(u'\n').contains(value));
    QCOMPARE(set->text(), u"Replace Value…"_s);

    m_prompter.removeSecretAnswer = true;
    auto *remove = m_dialog->findChild<QPushButton *>(u"removeValueButton"_s);
    QVERIFY(remove->isEnabled());
    QTest::mouseClick(remove, Qt::LeftButton);
    QCOMPARE(m_prompter.removeSecretQuestions, QStringList{m_apiName});
    QVERIFY(written.wait());
    QVERIFY(!m_keychain.has(m_apiName));
    QTRY_COMPARE(cell(m_apiName, SecretListModel::KeychainColumn), u"no"_s);
    QVERIFY(!remove->isEnabled());
}

void TestSecretsDialog::deleteAsksFirst()
{
    if (!m_available)
        QSKIP(qPrintable(u"needs a Secret Service: "_s + m_why));
    QVERIFY(m_keychain.set(m_apiName, u"keep-me"_s));
    m_dialog = makeDialog();
    QTRY_VERIFY(m_dialog->keychainAvailable());
    m_dialog->selectName(m_apiName);
    m_prompter.removeSecretAnswer = false;
    m_dialog->removeSelected();
    QCOMPARE(m_prompter.removeSecretQuestions.size(), 1);
    QVERIFY(m_keychain.has(m_apiName));
    QVERIFY(m_keychain.remove(m_apiName));
}

void TestSecretsDialog::aSlowKeychainNeverStopsTheWindow()
{
    if (!m_available)
        QSKIP(qPrintable(u"needs a Secret Service: "_s + m_why));
    m_dialog = makeDialog();
    QTRY_COMPARE(cell(m_apiName, SecretListModel::KeychainColumn), u"no"_s);
    m_dialog->selectName(m_apiName);
    auto *set = m_dialog->findChild<QPushButton *>(u"setValueButton"_s);
    auto *remove = m_dialog->findChild<QPushButton *>(u"removeValueButton"_s);
    QTRY_VERIFY(set->isEnabled());
    QTest::mouseClick(set, Qt::LeftButton);
    QTest::keyClicks(m_dialog->findChild<QLineEdit *>(u"secretValue"_s), u"slow-keychain-value"_s);
    m_prompter.removeSecretAnswer = true;

    // The real Secret Service answers each step late; Set and Delete each wait for it.
    constexpr int kPauseMs = 600;
    const struct
    {
        QPushButton *button;
        QString answered;
    } steps[] = {{m_dialog->findChild<QPushButton *>(u"storeValueButton"_s), u"yes"_s}, {remove, u"no"_s}};
    for (const auto &step : steps) {
        SecretServicePause pause;
        QString why;
        QVERIFY2(pause.pauseFor(kPauseMs, &why), qPrintable(why));
        GuiStallProbe probe;
        bool offWhileWriting = false;
        QString activity;
        QElapsedTimer took;
        took.start();
        probe.start();
        const bool answered = runFromEventLoop(
            [&] {
                QTest::mouseClick(step.button, Qt::LeftButton);
                offWhileWriting = !set->isEnabled() && !remove->isEnabled();
                activity = m_dialog->findChild<QLabel *>(u"keychainActivity"_s)->text();
            },
            [&] { return cell(m_apiName, SecretListModel::KeychainColumn) == step.answered; });
        probe.stop();
        qInfo("%s", qPrintable(probe.summary()));
        QVERIFY2(answered, qPrintable(cell(m_apiName, SecretListModel::KeychainColumn)));
        QVERIFY2(probe.deepestLoopLevel() == 1, qPrintable(probe.summary()));
        QVERIFY2(probe.largestGapMs() <= 100, qPrintable(probe.summary()));
        QVERIFY2(took.elapsed() >= kPauseMs / 2, qPrintable(u"answered after %1 ms"_s.arg(took.elapsed())));
        QVERIFY(offWhileWriting);
        QVERIFY2(activity.contains(u"the keychain…"_s) && activity.contains(m_apiName), qPrintable(activity));
        QVERIFY(pause.waitUntilResumed(5000));
        QTRY_VERIFY(remove->isEnabled() == (step.answered == u"yes"_s));
    }
    QVERIFY2(m_prompter.errors.isEmpty(), qPrintable(m_prompter.errors.join(u'\n')));
}

void TestSecretsDialog::keychainValueReplacesOneKeptInMemory()
{
    if (!m_available)
        QSKIP(qPrintable(u"needs a Secret Service: "_s + m_why));
    // Kept while the keychain was away; now it answers again.
    m_memory->set(m_apiName, u"kept-while-away"_s);
    m_dialog = makeDialog();
    QTRY_VERIFY(m_dialog->keychainAvailable());
    QTRY_COMPARE(cell(m_apiName, SecretListModel::KeychainColumn), u"no"_s);
    QVERIFY(!m_dialog->table()->isColumnHidden(SecretListModel::MemoryColumn));
    QCOMPARE(cell(m_apiName, SecretListModel::MemoryColumn), u"yes"_s);
    m_dialog->selectName(m_apiName);
    auto *set = m_dialog->findChild<QPushButton *>(u"setValueButton"_s);
    QTRY_VERIFY(set->isEnabled());
    QCOMPARE(set->text(), u"Replace Value…"_s);

    QTest::mouseClick(set, Qt::LeftButton);
    QTest::keyClicks(m_dialog->findChild<QLineEdit *>(u"secretValue"_s), u"into-the-keychain"_s);
    QSignalSpy written(m_dialog.get(), &SecretsDialog::writeFinished);
    QTest::mouseClick(m_dialog->findChild<QPushButton *>(u"storeValueButton"_s), Qt::LeftButton);
    QVERIFY(written.wait());
    QCOMPARE(m_keychain.read(m_apiName).value, u"into-the-keychain"_s);
    // Memory is looked up before the keychain: the old value must not shadow the new one.
    QVERIFY(!m_memory->has(m_apiName));
    QCOMPARE(cell(m_apiName, SecretListModel::MemoryColumn), u"no"_s);
    QVERIFY(m_dialog->table()->isColumnHidden(SecretListModel::MemoryColumn));
    QVERIFY(m_keychain.remove(m_apiName));
}

bool TestSecretsDialog::ranWithoutKeychainInAChild()
{
    if (!m_available)
        return false;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(u"DBUS_SESSION_BUS_ADDRESS"_s, u"unix:path=/nonexistent/capdesk-no-bus"_s);
    const QString function = QString::fromLatin1(QTest::currentTestFunction());
    const ProcessRun::Result child =
        ProcessRun::run(QCoreApplication::applicationFilePath(), {function}, {}, environment);
    [&] {
        QVERIFY2(child.finished && child.exitCode == 0, child.out.constData());
        QVERIFY2(child.out.contains("PASS   : TestSecretsDialog::" + function.toLatin1() + "()"),
                 child.out.constData());
    }();
    return true;
}

void TestSecretsDialog::unavailableKeychainIsSaidPlainly()
{
    if (ranWithoutKeychainInAChild())
        return;
    m_dialog = makeDialog();
    QVERIFY(!m_dialog->keychainAvailable());
    auto *banner = m_dialog->findChild<QLabel *>(u"keychainBanner"_s);
    QTRY_VERIFY(banner->isVisible());
    // A sentence a person can act on, not D-Bus's words; those are in the tooltip.
    QVERIFY2(banner->text().contains(u"No keychain is available"_s), qPrintable(banner->text()));
    QVERIFY(banner->text().contains(u"kept only in memory until Capdesk closes"_s));
    QVERIFY(banner->text().contains(u"never written to disk"_s));
    QVERIFY(banner->text().contains(u"Environment variables still work"_s));
    for (const QString &raw : {u"dbus"_s, u"D-Bus"_s, u"child process"_s, u"org.freedesktop"_s})
        QVERIFY2(!banner->text().contains(raw, Qt::CaseInsensitive), qPrintable(banner->text()));
    QVERIFY2(banner->toolTip().startsWith(u"Details: "_s) && banner->toolTip().size() > 9,
             qPrintable(banner->toolTip()));
    QVERIFY(!m_dialog->table()->isColumnHidden(SecretListModel::MemoryColumn));
    QTRY_COMPARE(cell(m_apiName, SecretListModel::KeychainColumn), u"unavailable"_s);
    QCOMPARE(cell(m_apiName, SecretListModel::MemoryColumn), u"no"_s);
    // Setting a value works; deleting waits until there is one.
    m_dialog->selectName(m_apiName);
    QTRY_VERIFY(m_dialog->findChild<QPushButton *>(u"setValueButton"_s)->isEnabled());
    QVERIFY(!m_dialog->findChild<QPushButton *>(u"removeValueButton"_s)->isEnabled());
}

void TestSecretsDialog::withoutKeychainValuesAreKeptInMemory()
{
    if (ranWithoutKeychainInAChild())
        return;
    m_dialog = makeDialog();
    auto *set = m_dialog->findChild<QPushButton *>(u"setValueButton"_s);
    auto *remove = m_dialog->findChild<QPushButton *>(u"removeValueButton"_s);
    m_dialog->selectName(m_apiName);
    QTRY_VERIFY(set->isEnabled());
    QCOMPARE(set->text(), u"Set Value…"_s);

    const QString value =
        u"xai-MEMORYCANARY-"_s + QString::number(QRandomGenerator::global()->generate64(), 16);
    QTest::mouseClick(set, Qt::LeftButton);
    auto *field = m_dialog->findChild<QLineEdit *>(u"secretValue"_s);
    QVERIFY(field->isVisible());
    QCOMPARE(field->echoMode(), QLineEdit::Password);
    QVERIFY(m_dialog->findChild<QLabel *>(u"keychainBanner"_s)->isVisible());
    QTest::keyClicks(field, value);
    QSignalSpy written(m_dialog.get(), &SecretsDialog::writeFinished);
    QTest::mouseClick(m_dialog->findChild<QPushButton *>(u"storeValueButton"_s), Qt::LeftButton);
    // Memory answers at once, before the click returns.
    QCOMPARE(written.size(), 1);

    QVERIFY2(m_prompter.errors.isEmpty(), qPrintable(m_prompter.errors.join(u'\n')));
    const SecretSource::Lookup kept = m_memory->lookup(m_apiName);
    QCOMPARE(kept.origin, SecretSource::Origin::Memory);
    QCOMPARE(kept.value, value);
    QCOMPARE(cell(m_apiName, SecretListModel::MemoryColumn), u"yes"_s);
    QVERIFY(!field->isVisible());
    QVERIFY(field->text().isEmpty());
    QVERIFY(!field->isUndoAvailable());
    QVERIFY(!visibleTexts().join(u'\n').contains(value));
    QCOMPARE(set->text(), u"Replace Value…"_s);

    m_prompter.removeSecretAnswer = true;
    QVERIFY(remove->isEnabled());
    QTest::mouseClick(remove, Qt::LeftButton);
    QCOMPARE(m_prompter.removeSecretQuestions, QStringList{m_apiName});
    QCOMPARE(written.size(), 2);
    QVERIFY(!m_memory->has(m_apiName));
    QCOMPARE(cell(m_apiName, SecretListModel::MemoryColumn), u"no"_s);
    QVERIFY(!remove->isEnabled());
    QCOMPARE(set->text(), u"Set Value…"_s);
}

QTEST_MAIN(TestSecretsDialog)
#include "tst_secretsdialog.moc"
