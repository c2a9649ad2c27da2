#include "dispatch/contract/contractfingerprint.h"
#include "dispatch/store/eventlog.h"
#include "dispatch/tokens/capabilitytokenstore.h"
#include "models/capabilitytokenmodel.h"
#include "tests/views/viewtestsupport.h"
#include "views/tokens/namelistcompleter.h"
#include "views/tokens/tokenformpanel.h"
#include "views/tokens/tokensdialog.h"
#include "views/tokens/tokenvaluepanel.h"

#include <QAbstractItemView>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QDateTimeEdit>
#include <QGuiApplication>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSpinBox>
#include <QTableView>

#include <functional>

using namespace Qt::StringLiterals;

// The Capability tokens dialog on a real directory file: a token made through the form
// appears in the table and its value is shown exactly once; revocation asks first; a
// form the engine refuses names the problem and writes nothing; keys and categories
// complete from the directory, and one no row has is warned about, not refused.
using Fill = std::function<void(TokenFormPanel &)>;
Q_DECLARE_METATYPE(Fill)

class TestTokensDialog : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void cleanup();
    void createThroughTheForm_data();
    void createThroughTheForm();
    void valueIsGoneAfterClosingAndReopening();
    void revokeAsksFirst();
    void invalidFormIsRefusedAndWritesNothing_data();
    void invalidFormIsRefusedAndWritesNothing();
    void unknownNamesAreWarnedNotRefused_data();
    void unknownNamesAreWarnedNotRefused();
    void keysAndCategoriesCompleteTheItemUnderTheCursor();

private:
    std::unique_ptr<TokensDialog> makeDialog();
    void click(const QString &button) const;
    QString cell(int row, int column) const;
    // Types `typed` into `edit` as the owner does, then picks the first completion offered.
    static void typeAndPickFirst(QLineEdit *edit, NameListCompleter *completer, const QString &typed,
                                 const QString &offered);
    // Every text any widget of the dialog shows or holds, and every cell of its table.
    QStringList allTexts() const;
    int tokenEventCount() const;

    std::unique_ptr<QTemporaryDir> m_dir;
    std::shared_ptr<SqlDirectoryStore> m_store;
    FakePrompter m_prompter;
    std::unique_ptr<TokensDialog> m_dialog;
};

void TestTokensDialog::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    m_store = openStoreWithRows(m_dir->filePath(u"tokens.db"_s), sampleRows());
    QVERIFY(m_store);
    m_prompter = FakePrompter();
}

void TestTokensDialog::cleanup()
{
    m_dialog.reset();
    m_store.reset();
    m_dir.reset();
}

std::unique_ptr<TokensDialog> TestTokensDialog::makeDialog()
{
    auto dialog = std::make_unique<TokensDialog>(std::make_shared<CapabilityTokenStore>(m_store->database()),
                                                 m_store, m_prompter);
    dialog->show();
    return dialog;
}

void TestTokensDialog::click(const QString &button) const
{
    auto *push = m_dialog->findChild<QPushButton *>(button);
    QVERIFY2(push, qPrintable(button));
    QVERIFY2(push->isEnabled(), qPrintable(button));
    QTest::mouseClick(push, Qt::LeftButton);
}

QString TestTokensDialog::cell(int row, int column) const
{
    return m_dialog->model()->index(row, column).data().toString();
}

QStringList TestTokensDialog::allTexts() const
{
    QStringList texts;
    for (const QWidget *widget : m_dialog->findChildren<QWidget *>()) {
        if (const auto *line = qobject_cast<const QLineEdit *>(widget))
            texts << line->text() << line->toolTip();
        else if (const auto *label = qobject_cast<const QLabel *>(widget))
            texts << label->text();
        else if (const auto *plain = qobject_cast<const QPlainTextEdit *>(widget))
            texts << plain->toPlainText();
    }
    for (int row = 0; row < m_dialog->model()->rowCount(); ++row)
        for (int column = 0; column < m_dialog->model()->columnCount(); ++column)
            texts << cell(row, column)
                  << m_dialog->model()->index(row, column).data(Qt::ToolTipRole).toString();
    return texts;
}

int TestTokensDialog::tokenEventCount() const
{
    const StoreResult<QList<LogEvent>> events = EventLog(m_store->database()).events();
    int count = 0;
    for (const LogEvent &event : events.value())
        count += event.kind.startsWith(u"TOKEN_"_s) ? 1 : 0;
    return count;
}

void TestTokensDialog::createThroughTheForm_data()
{
    QTest::addColumn<Fill>("fill");
    QTest::addColumn<QString>("scope");
    QTest::addColumn<QString>("risk");
    QTest::addColumn<bool>("pinned");
    QTest::addColumn<QString>("expiry");

    QTest::addRow("one key") << Fill([](TokenFormPanel &f) { f.keysEdit()->setText(u"ECHO_BACK"_s); })
                             << u"keys ECHO_BACK"_s << u"low"_s << false << u"never"_s;
    QTest::addRow("categories, high ceiling, owner gate") << Fill([](TokenFormPanel &f) {
        f.categoriesEdit()->setText(u"time, text"_s);
        f.riskCombo()->setCurrentIndex(f.riskCombo()->findData(u"high"_s));
        f.ownerGateCheck()->setChecked(true);
    }) << u"categories time, text; owner present"_s << u"high"_s
                                                          << false << u"never"_s;
    QTest::addRow("pinned row") << Fill(
        [](TokenFormPanel &f) { f.pinCombo()->setCurrentIndex(f.pinCombo()->findData(u"ECHO_BACK"_s)); })
                                << u"keys ECHO_BACK"_s << u"low"_s << true << u"never"_s;
    QTest::addRow("fixed body, ceiling and expiry") << Fill([](TokenFormPanel &f) {
        f.keysEdit()->setText(u"NOW, ECHO_BACK"_s);
        f.fixedBodyCheck()->setChecked(true);
        f.fixedBodyEdit()->setPlainText(u"hello"_s);
        f.ceilingCheck()->setChecked(true);
        f.ceilingSpin()->setValue(5);
        f.expiryCheck()->setChecked(true);
        f.expiryEdit()->setDateTime(QDateTime(QDate(2099, 1, 2), QTime(3, 4), Qt::UTC));
    }) << u"keys NOW, ECHO_BACK"_s << u"low"_s << false
                                                    << u"2099-01-02T03:04:00.000Z"_s;
}

void TestTokensDialog::createThroughTheForm()
{
    QFETCH(Fill, fill);
    QFETCH(QString, scope);
    QFETCH(QString, risk);
    QFETCH(bool, pinned);
    QFETCH(QString, expiry);

    m_dialog = makeDialog();
    QCOMPARE(m_dialog->windowTitle(), u"Capability tokens"_s);
    QCOMPARE(m_dialog->model()->rowCount(), 0);
    QVERIFY(!m_dialog->form()->isVisible());
    click(u"newTokenButton"_s);
    QVERIFY(m_dialog->form()->isVisible());
    QCOMPARE(m_dialog->form()->pinCombo()->count(), sampleRows().size() + 1);
    m_dialog->form()->labelEdit()->setText(u"planner"_s);
    QTest::keyClicks(m_dialog->form()->audienceEdit(), u"agent:planner"_s);
    fill(*m_dialog->form());
    click(u"createTokenButton"_s);

    QCOMPARE(m_prompter.errors, QStringList());
    QVERIFY(!m_dialog->form()->isVisible());
    QCOMPARE(m_dialog->model()->rowCount(), 1);
    QCOMPARE(cell(0, CapabilityTokenModel::LabelColumn), u"planner"_s);
    QCOMPARE(cell(0, CapabilityTokenModel::AudienceColumn), u"agent:planner"_s);
    QCOMPARE(cell(0, CapabilityTokenModel::ScopeColumn), scope);
    QCOMPARE(cell(0, CapabilityTokenModel::RiskColumn), risk);
    QCOMPARE(cell(0, CapabilityTokenModel::ExpiryColumn), expiry);
    QCOMPARE(cell(0, CapabilityTokenModel::StatusColumn), u"active"_s);
    const CapabilityToken *token = m_dialog->model()->tokenAt(0);
    const Row echo = m_store->row(u"ECHO_BACK"_s).value();
    QCOMPARE(token->pinnedContract, pinned ? ContractFingerprint::of(echo) : QString());
    QCOMPARE(cell(0, CapabilityTokenModel::PinnedColumn),
             pinned ? token->pinnedContract.left(12) + u"…"_s : u"no"_s);

    // The value, once, matching the stored hash.
    QVERIFY(m_dialog->valuePanel()->isVisible());
    const QString value = m_dialog->valuePanel()->valueField()->text();
    QVERIFY2(QRegularExpression(u"^cdt_[A-Za-z0-9_-]{43}$"_s).match(value).hasMatch(), qPrintable(value));
    QVERIFY(m_dialog->valuePanel()->valueField()->isReadOnly());
    QCOMPARE(CapabilityTokenStore(m_store->database()).findByValue(value).value().id, token->id);
    QVERIFY(
        m_dialog->findChild<QLabel *>(u"tokenValueWarning"_s)->text().contains(u"cannot be shown again"_s));
    click(u"copyTokenValueButton"_s);
    QCOMPARE(QGuiApplication::clipboard()->text(), value);
    QGuiApplication::clipboard()->clear();
}

void TestTokensDialog::valueIsGoneAfterClosingAndReopening()
{
    m_dialog = makeDialog();
    click(u"newTokenButton"_s);
    m_dialog->form()->audienceEdit()->setText(u"ci"_s);
    m_dialog->form()->keysEdit()->setText(u"NOW"_s);
    click(u"createTokenButton"_s);
    const QString value = m_dialog->valuePanel()->valueField()->text();
    QVERIFY(value.startsWith(u"cdt_"_s));
    QCOMPARE(allTexts().filter(value).size(), 1);

    m_dialog->close();
    QVERIFY(m_dialog->valuePanel()->valueField()->text().isEmpty());
    QCOMPARE(allTexts().filter(value.mid(4)).size(), 0);
    m_dialog->show(); // the same dialog shown again
    QVERIFY(!m_dialog->valuePanel()->isVisible());
    QCOMPARE(allTexts().filter(value.mid(4)).size(), 0);

    m_dialog = makeDialog(); // and a new one
    QCOMPARE(m_dialog->model()->rowCount(), 1);
    QVERIFY(!m_dialog->valuePanel()->isVisible());
    QCOMPARE(allTexts().filter(value.mid(4)).size(), 0);
}

void TestTokensDialog::revokeAsksFirst()
{
    CapabilityToken spec;
    spec.audience = u"ci"_s;
    spec.allowedKeys = {u"NOW"_s};
    const QString id =
        CapabilityTokenStore(m_store->database()).create(spec, u"owner:local"_s).value().token.id;
    m_dialog = makeDialog();
    auto *revoke = m_dialog->findChild<QPushButton *>(u"revokeTokenButton"_s);
    QVERIFY(!revoke->isEnabled()); // nothing selected
    m_dialog->table()->selectRow(0);

    m_prompter.revokeTokenAnswer = false;
    click(u"revokeTokenButton"_s);
    QCOMPARE(m_prompter.revokeTokenQuestions, QStringList{id});
    QCOMPARE(cell(0, CapabilityTokenModel::StatusColumn), u"active"_s);

    m_prompter.revokeTokenAnswer = true;
    click(u"revokeTokenButton"_s);
    QCOMPARE(cell(0, CapabilityTokenModel::StatusColumn), u"revoked"_s);
    QVERIFY(!revoke->isEnabled());
    QVERIFY(CapabilityTokenStore(m_store->database()).list().value().at(0).isRevoked());
    QCOMPARE(m_prompter.errors, QStringList());
}

void TestTokensDialog::invalidFormIsRefusedAndWritesNothing_data()
{
    QTest::addColumn<Fill>("fill");
    QTest::addColumn<QString>("error");

    QTest::addRow("no audience") << Fill([](TokenFormPanel &f) { f.audienceEdit()->clear(); })
                                 << u"audience: required"_s;
    QTest::addRow("no scope") << Fill([](TokenFormPanel &f) { f.keysEdit()->clear(); })
                              << u"scope: at least one key or category"_s;
    QTest::addRow("pin beside a category") << Fill([](TokenFormPanel &f) {
        f.categoriesEdit()->setText(u"time"_s);
        f.pinCombo()->setCurrentIndex(f.pinCombo()->findData(u"NOW"_s));
    }) << u"pinned_contract: a pinned token reaches only NOW; its scope must be that key alone"_s;
    QTest::addRow("fixed body over the ceiling") << Fill([](TokenFormPanel &f) {
        f.fixedBodyCheck()->setChecked(true);
        f.fixedBodyEdit()->setPlainText(u"too long"_s);
        f.ceilingCheck()->setChecked(true);
        f.ceilingSpin()->setValue(3);
    }) << u"fixed_body: longer than payload_ceiling; the token could never be used"_s;
    QTest::addRow("expiry passed") << Fill([](TokenFormPanel &f) {
        f.expiryCheck()->setChecked(true);
        f.expiryEdit()->setDateTime(QDateTime(QDate(2020, 1, 1), QTime(0, 0), Qt::UTC));
    }) << u"expires_at: 2020-01-01T00:00:00.000Z has already passed"_s;
}

void TestTokensDialog::invalidFormIsRefusedAndWritesNothing()
{
    QFETCH(Fill, fill);
    QFETCH(QString, error);

    m_dialog = makeDialog();
    click(u"newTokenButton"_s);
    m_dialog->form()->audienceEdit()->setText(u"ci"_s);
    m_dialog->form()->keysEdit()->setText(u"NOW"_s);
    fill(*m_dialog->form());
    click(u"createTokenButton"_s);

    QCOMPARE(m_prompter.errors, QStringList{u"Capability tokens: "_s + error});
    QVERIFY(m_dialog->form()->isVisible()); // what was typed stays to be fixed
    QVERIFY(!m_dialog->valuePanel()->isVisible());
    QCOMPARE(m_dialog->model()->rowCount(), 0);
    QCOMPARE(CapabilityTokenStore(m_store->database()).list().value().size(), 0);
    QCOMPARE(tokenEventCount(), 0);
}

void TestTokensDialog::unknownNamesAreWarnedNotRefused_data()
{
    QTest::addColumn<QString>("keys");
    QTest::addColumn<QString>("categories");
    QTest::addColumn<QString>("warning"); // empty: none shown

    QTest::addRow("known key") << u"NOW"_s << QString() << QString();
    QTest::addRow("known keys and categories") << u"NOW, ECHO_BACK"_s << u"time,text"_s << QString();
    QTest::addRow("unknown key") << u"NOW, NOT_YET"_s << QString() << u"no row has the key NOT_YET"_s;
    QTest::addRow("unknown category") << QString() << u"time, later"_s << u"no row has the category later"_s;
    QTest::addRow("names compare exactly")
        << u"now"_s << u"Time"_s << u"no row has the key now; no row has the category Time"_s;
}

void TestTokensDialog::unknownNamesAreWarnedNotRefused()
{
    QFETCH(QString, keys);
    QFETCH(QString, categories);
    QFETCH(QString, warning);
    m_dialog = makeDialog();
    click(u"newTokenButton"_s);
    TokenFormPanel *form = m_dialog->form();
    QLabel *label = form->unknownNamesWarning();
    QVERIFY(!label->isVisible());
    QTest::keyClicks(form->audienceEdit(), u"ci"_s);
    QTest::keyClicks(form->keysEdit(), keys);
    QTest::keyClicks(form->categoriesEdit(), categories);

    QCOMPARE(label->isVisible(), !warning.isEmpty());
    if (!warning.isEmpty()) {
        QVERIFY2(label->text().contains(warning), qPrintable(label->text()));
        QVERIFY(label->text().contains(u"can still be made"_s));
    }
    // A warning, not a block: the token is made as typed.
    click(u"createTokenButton"_s);
    QCOMPARE(m_prompter.errors, QStringList());
    QCOMPARE(m_dialog->model()->rowCount(), 1);
    const CapabilityToken *token = m_dialog->model()->tokenAt(0);
    QCOMPARE(token->allowedKeys, CapabilityToken::splitList(keys));
    QCOMPARE(token->allowedCategories, CapabilityToken::splitList(categories));

    // Fixing the name takes the warning away; a new form starts without one.
    click(u"newTokenButton"_s);
    QVERIFY(!label->isVisible());
    QTest::keyClicks(form->keysEdit(), u"NOPE"_s);
    QVERIFY(label->isVisible());
    form->keysEdit()->clear();
    QVERIFY(!label->isVisible());
}

void TestTokensDialog::typeAndPickFirst(QLineEdit *edit, NameListCompleter *completer, const QString &typed,
                                        const QString &offered)
{
    QTest::keyClicks(edit, typed);
    QVERIFY2(completer->popup()->isVisible(), qPrintable(edit->text()));
    QCOMPARE(completer->completionCount(), 1);
    QCOMPARE(completer->currentCompletion(), offered);
    QTest::keyClick(completer->popup(), Qt::Key_Down);
    QTest::keyClick(completer->popup(), Qt::Key_Return);
    QVERIFY(!completer->popup()->isVisible());
}

void TestTokensDialog::keysAndCategoriesCompleteTheItemUnderTheCursor()
{
    m_dialog = makeDialog();
    click(u"newTokenButton"_s);
    TokenFormPanel *form = m_dialog->form();
    QLineEdit *keys = form->keysEdit();
    QLineEdit *categories = form->categoriesEdit();
    keys->setFocus();

    typeAndPickFirst(keys, form->keysCompleter(), u"ECH"_s, u"ECHO_BACK"_s);
    QCOMPARE(keys->text(), u"ECHO_BACK"_s);
    // The next item of the list, typed in another case: completed as the directory spells it.
    typeAndPickFirst(keys, form->keysCompleter(), u", wea"_s, u"WEATHER_NOW"_s);
    QCOMPARE(keys->text(), u"ECHO_BACK, WEATHER_NOW"_s);
    QCOMPARE(keys->cursorPosition(), keys->text().size());
    // An item in the middle is replaced in place, the rest kept.
    keys->setText(u"NOW, TR, ECHO_BACK"_s);
    keys->setCursorPosition(7);
    typeAndPickFirst(keys, form->keysCompleter(), u"I"_s, u"TRIAGE"_s);
    QCOMPARE(keys->text(), u"NOW, TRIAGE, ECHO_BACK"_s);
    // A name nothing starts with offers nothing (and is warned about).
    QTest::keyClicks(keys, u"Z"_s);
    QVERIFY(!form->keysCompleter()->popup()->isVisible());
    QVERIFY(form->unknownNamesWarning()->isVisible());
    QTest::keyClick(keys, Qt::Key_Backspace);

    categories->setFocus();
    typeAndPickFirst(categories, form->categoriesCompleter(), u"we"_s, u"weather"_s);
    typeAndPickFirst(categories, form->categoriesCompleter(), u",ti"_s, u"time"_s);
    QCOMPARE(categories->text(), u"weather, time"_s);
    QVERIFY(!form->unknownNamesWarning()->isVisible());
}

QTEST_MAIN(TestTokensDialog)
#include "tst_tokensdialog.moc"
