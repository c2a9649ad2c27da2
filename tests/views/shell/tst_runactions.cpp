#include "dispatch/directory/localdirectory.h"
#include "dispatch/invoke/directoryledger.h"
#include "dispatch/receipts/receiptlogaudit.h"
#include "dispatch/store/sqldirectorystore.h"
#include "models/callhistorymodel.h"
#include "models/directorydocument.h"
#include "models/directorytablemodel.h"
#include "tests/views/shell/samplewindow.h"
#include "tests/views/viewtestsupport.h"
#include "views/common/directorysession.h"
#include "views/editor/roweditorpanel.h"
#include "views/flows/flowpane.h"
#include "views/invoke/callpanel.h"
#include "views/invoke/invokepanel.h"
#include "views/receipts/receiptspane.h"
#include "views/receipts/receiptviewer.h"
#include "views/shell/commandpalette.h"
#include "views/shell/editactions.h"
#include "views/shell/fileactions.h"
#include "views/shell/mainwindow.h"
#include "views/shell/messagelog.h"
#include "views/shell/runactions.h"
#include "views/shell/shortcutsdialog.h"
#include "views/table/directorytableview.h"
#include "views/table/filterbar.h"

#include <QAbstractButton>
#include <QAction>
#include <QDockWidget>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QSettings>
#include <QStatusBar>
#include <QTemporaryDir>

using namespace Qt::StringLiterals;

// The window's keyboard: Ctrl+Return runs a row only where its arguments are in view, the
// command palette reaches every command and row, the shortcut list names every key, and
// mnemonics are unique. And the rows the window shows: a new row or the row an undo
// changed is brought into the table, filters lifted with a note; Down leaves the filter.
class TestRunActions : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void cleanup();

    void ctrlReturnRunsOnlyWhereTheArgumentsAreInView();
    void paletteGoesToARowByAFuzzyKey();
    void paletteRunsACommandAndShowsItsKeys();
    void shortcutListNamesTheRunMenuKeys_data();
    void shortcutListNamesTheRunMenuKeys();
    void mnemonicsAreUnique();
    void aNewRowHiddenByTheFilterLiftsItWithANote();
    void undoSelectsTheRowItChanges();
    void downFromTheFilterMovesIntoTheRows();
    void theReceiptKeyStatusFollowsTheFirstCall();
    void aNewReceiptKeySignsOnceAsked();
    void longMessagesAreKeptWhole();
    void aDebuggerReceiptLinkOpensTheReceiptsDock();

private:
    QList<Receipt> receiptsOf(const QString &key) const;

    std::unique_ptr<SampleWindow> m_sample;
};

void TestRunActions::init()
{
    m_sample = std::make_unique<SampleWindow>();
    QVERIFY(m_sample->open());
}

void TestRunActions::cleanup()
{
    m_sample.reset();
}

QList<Receipt> TestRunActions::receiptsOf(const QString &key) const
{
    ReceiptLog::Query query;
    query.key = key;
    return m_sample->session->ledger()->receipts().list(query).value();
}

// Typing in the content editor with the Flow dock in front, Ctrl+Return sends nothing: it
// brings Shape and invoke forward. Only the second press runs, once, at the dispatcher
// and in the receipts.
void TestRunActions::ctrlReturnRunsOnlyWhereTheArgumentsAreInView()
{
    QStringList called; // keys of real calls (not shape previews) the session's dispatcher finished
    QObject listening;
    connect(m_sample->session.get(), &DirectorySession::invocationFinished, &listening,
            [&called](const InvocationRequest &request) {
                if (!request.shape)
                    called << request.key;
            });
    QVERIFY(m_sample->window->tableView()->selectKey(u"NOW"_s));
    m_sample->window->flowDock()->raise();
    // A dock behind another's tab stays "visible" to Qt; what shows is its region.
    auto callDockShows = [this] { return !m_sample->window->callDock()->visibleRegion().isEmpty(); };
    QTRY_VERIFY(!callDockShows());
    auto *content = m_sample->window->editorPanel()->findChild<QPlainTextEdit *>(u"content"_s);
    QVERIFY(content);
    content->setFocus();
    QTRY_VERIFY(content->hasFocus());

    QTest::keyClick(content, Qt::Key_Return, Qt::ControlModifier);
    QTRY_VERIFY(callDockShows());
    QVERIFY(m_sample->window->statusBar()->currentMessage().contains(u"then press"_s));
    // A call started by that press would be running or done by now.
    InvokePanel *invoke = m_sample->window->callPanel()->invokePanel();
    QVERIFY(!invoke->isBusy());
    QCOMPARE(invoke->history()->rowCount(), 0);

    QTest::keyClick(content, Qt::Key_Return, Qt::ControlModifier);
    QTRY_COMPARE(called, QStringList{u"NOW"_s});
    QCOMPARE(receiptsOf(u"NOW"_s).size(), 1);
    QTRY_COMPARE(invoke->history()->rowCount(), 1);
    QCOMPARE(m_sample->window->editorPanel()->key(), u"NOW"_s);

    // Run › Invoke is greyed where the panel's button is: with no row shown.
    QAction *menuInvoke = m_sample->window->findChild<QAction *>(u"invokeAction"_s);
    QVERIFY(menuInvoke && menuInvoke->isEnabled());
    QTemporaryDir elsewhere;
    auto empty = openStoreWithRows(elsewhere.filePath(u"empty.db"_s), {});
    QVERIFY(empty);
    QVERIFY(!m_sample->session->open(LocalDirectory::over(empty)).isError());
    QTRY_VERIFY(!menuInvoke->isEnabled());
    QVERIFY(!m_sample->session->open(LocalDirectory::over(openStoreWithRows(m_sample->path, {}))).isError());
    QVERIFY(m_sample->window->tableView()->selectKey(u"NOW"_s));
    QTRY_VERIFY(menuInvoke->isEnabled());
}

// Every row, the ones the filter hides too: going to one lifts the filter.
void TestRunActions::paletteGoesToARowByAFuzzyKey()
{
    QTest::keyClicks(m_sample->window->filterBar()->searchEdit(), u"triage"_s);
    QVERIFY(m_sample->window->tableView()->selectKey(u"TRIAGE"_s));
    QTest::keyClick(m_sample->window->tableView(), Qt::Key_K, Qt::ControlModifier);
    CommandPalette *palette = m_sample->window->commandPalette();
    QTRY_VERIFY(palette->isVisible());
    QTest::keyClicks(palette->queryEdit(), u"wthr"_s);
    QVERIFY(palette->results()->count() >= 1);
    QVERIFY(palette->results()->item(0)->text().startsWith(u"WEATHER_NOW"_s));
    QTest::keyClick(palette->queryEdit(), Qt::Key_Return);
    QVERIFY(!palette->isVisible());
    QCOMPARE(m_sample->window->tableView()->currentKey(), u"WEATHER_NOW"_s);
    QCOMPARE(m_sample->window->editorPanel()->key(), u"WEATHER_NOW"_s);
    QCOMPARE(m_sample->window->filterBar()->searchEdit()->text(), QString());
}

// Ctrl+Shift+P opens on commands only; the entry shows its keys and Return runs it.
void TestRunActions::paletteRunsACommandAndShowsItsKeys()
{
    QVERIFY(m_sample->window->tableView()->selectKey(u"NOW"_s));
    const int rows = m_sample->session->document()->tableModel()->rowCount();
    QTest::keyClick(m_sample->window->tableView(), Qt::Key_P, Qt::ControlModifier | Qt::ShiftModifier);
    CommandPalette *palette = m_sample->window->commandPalette();
    QTRY_VERIFY(palette->isVisible());
    QCOMPARE(palette->queryEdit()->text(), u">"_s);
    QTest::keyClicks(palette->queryEdit(), u"duplic"_s);
    QVERIFY(palette->results()->count() >= 1);
    const QString duplicateKeys = QKeySequence(Qt::CTRL | Qt::Key_D).toString(QKeySequence::NativeText);
    QCOMPARE(palette->results()->item(0)->text(), u"Edit › Duplicate    "_s + duplicateKeys);
    QTest::keyClick(palette->queryEdit(), Qt::Key_Return);
    QCOMPARE(m_sample->session->document()->tableModel()->rowCount(), rows + 1);
}

void TestRunActions::shortcutListNamesTheRunMenuKeys_data()
{
    QTest::addColumn<QString>("command");
    QTest::addColumn<QKeySequence>("keys");

    QTest::addRow("invoke") << u"Run › Invoke"_s << QKeySequence(Qt::CTRL | Qt::Key_Return);
    QTest::addRow("step") << u"Run › Step"_s << QKeySequence(Qt::Key_F10);
    QTest::addRow("continue") << u"Run › Continue"_s << QKeySequence(Qt::Key_F5);
    QTest::addRow("breakpoint") << u"Run › Breakpoint"_s << QKeySequence(Qt::Key_F9);
    QTest::addRow("abort") << u"Run › Abort"_s << QKeySequence(Qt::SHIFT | Qt::Key_F5);
    QTest::addRow("palette") << u"View › Command Palette"_s << QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_P);
    QTest::addRow("go to") << u"View › Go to Row or Command"_s << QKeySequence(Qt::CTRL | Qt::Key_K);
}

void TestRunActions::shortcutListNamesTheRunMenuKeys()
{
    QFETCH(QString, command);
    QFETCH(QKeySequence, keys);
    ShortcutsDialog dialog(m_sample->window->menuBar());
    QVERIFY(dialog.keysOf(command).startsWith(keys.toString(QKeySequence::NativeText)));
}

// Every mnemonic of the window, menus and panels alike (docks included, shown or not),
// is taken once: Alt+letter always goes to one place.
void TestRunActions::mnemonicsAreUnique()
{
    QHash<QChar, QStringList> owners;
    auto note = [&owners](const QString &text) {
        const qsizetype at = text.indexOf(u'&');
        if (at >= 0 && at + 1 < text.size() && text[at + 1] != u'&')
            owners[text[at + 1].toLower()] << text;
    };
    for (QAction *menu : m_sample->window->menuBar()->actions()) {
        note(menu->text());
        // Inside a menu, its own items' letters must differ from each other.
        QHash<QChar, QStringList> items;
        for (const QAction *item : menu->menu()->actions()) {
            const qsizetype at = item->text().indexOf(u'&');
            if (at >= 0 && at + 1 < item->text().size())
                items[item->text()[at + 1].toLower()] << item->text();
        }
        for (auto it = items.cbegin(); it != items.cend(); ++it) {
            QVERIFY2(it.value().size() == 1, qPrintable(menu->text() + u": "_s + it.value().join(u", "_s)));
        }
    }
    for (const QAbstractButton *button : m_sample->window->findChildren<QAbstractButton *>())
        note(button->text());
    for (const QLabel *label : m_sample->window->findChildren<QLabel *>()) {
        if (label->buddy())
            note(label->text());
    }
    QStringList clashes;
    for (auto it = owners.cbegin(); it != owners.cend(); ++it) {
        if (it.value().size() > 1)
            clashes << u"Alt+%1: %2"_s.arg(it.key().toUpper(), it.value().join(u", "_s));
    }
    QVERIFY2(clashes.isEmpty(), qPrintable(clashes.join(u"; "_s)));
    QVERIFY(owners.size() >= 15);
}

void TestRunActions::aNewRowHiddenByTheFilterLiftsItWithANote()
{
    // A row the directory does not have (a deleted row a receipt names) leaves the filter be.
    QTest::keyClicks(m_sample->window->filterBar()->searchEdit(), u"weather"_s);
    emit m_sample->window->receiptsPane()->rowRequested(u"GONE_LONG_AGO"_s);
    QCOMPARE(m_sample->window->filterBar()->searchEdit()->text(), u"weather"_s);
    m_sample->window->filterBar()->searchEdit()->clear();

    QTest::keyClicks(m_sample->window->filterBar()->searchEdit(), u"weather"_s);
    QCOMPARE(m_sample->session->document()->tableModel()->rowCount(), 1);
    m_sample->window->editActions()->createRow(u"fn"_s);
    const QString created = m_sample->window->editorPanel()->key();
    QVERIFY(!created.isEmpty());
    QCOMPARE(m_sample->window->tableView()->currentKey(), created);
    QCOMPARE(m_sample->window->filterBar()->searchEdit()->text(), QString());
    QCOMPARE(m_sample->window->statusBar()->currentMessage(), u"Filters cleared to show %1."_s.arg(created));
}

// Undo of an edit to a row the filter hides: the row comes back into the table and the
// editor, so the change is seen, not made behind another row shown as saved.
void TestRunActions::undoSelectsTheRowItChanges()
{
    DirectoryDocument *document = m_sample->session->document();
    QVERIFY(m_sample->window->tableView()->selectKey(u"NOW"_s));
    document->setField(u"NOW"_s, u"target"_s, u"uuid"_s);
    QTest::keyClicks(m_sample->window->filterBar()->searchEdit(), u"triage"_s);
    QVERIFY(m_sample->window->tableView()->selectKey(u"TRIAGE"_s));
    QCOMPARE(m_sample->window->editorPanel()->key(), u"TRIAGE"_s);

    m_sample->window->editActions()->undoAction()->trigger();
    QCOMPARE(document->row(u"NOW"_s)->target, u"now"_s);
    QCOMPARE(m_sample->window->tableView()->currentKey(), u"NOW"_s);
    QCOMPARE(m_sample->window->editorPanel()->key(), u"NOW"_s);

    QVERIFY(m_sample->window->tableView()->selectKey(u"TRIAGE"_s));
    m_sample->window->editActions()->redoAction()->trigger();
    QCOMPARE(document->row(u"NOW"_s)->target, u"uuid"_s);
    QCOMPARE(m_sample->window->editorPanel()->key(), u"NOW"_s);
}

void TestRunActions::downFromTheFilterMovesIntoTheRows()
{
    QLineEdit *search = m_sample->window->filterBar()->searchEdit();
    search->setFocus();
    QTest::keyClicks(search, u"tri"_s);
    QTest::keyClick(search, Qt::Key_Down);
    QVERIFY(m_sample->window->tableView()->hasFocus());
    QCOMPARE(m_sample->window->tableView()->currentKey(), u"TRIAGE"_s);
}

// "made on the first call" is true only until that call: then the status says where the
// key went.
void TestRunActions::theReceiptKeyStatusFollowsTheFirstCall()
{
    auto *status = m_sample->window->statusBar()->findChild<QLabel *>(u"signingKeyStatus"_s);
    QVERIFY(status);
    QCOMPARE(status->text(), u"Receipt key: made on the first call"_s);
    QVERIFY(m_sample->window->tableView()->selectKey(u"NOW"_s));
    m_sample->window->runActions()->invoke();
    QTRY_COMPARE(m_sample->window->callPanel()->invokePanel()->history()->rowCount(), 1);
    // Where the key went depends on whether a keychain answers here; either is named.
    QTRY_VERIFY2(status->text() == u"Receipt key: keychain"_s || status->text() == u"Receipt key: file"_s,
                 qPrintable(status->text()));
}

// File → Start a New Receipt Key…: asked first, then the next receipts are signed with the
// new key, which the key before signed for.
void TestRunActions::aNewReceiptKeySignsOnceAsked()
{
    QVERIFY(m_sample->window->tableView()->selectKey(u"NOW"_s));
    m_sample->window->runActions()->invoke();
    QTRY_COMPARE(receiptsOf(u"NOW"_s).size(), 1);
    DirectoryLedger &ledger = *m_sample->session->ledger();
    QTRY_VERIFY(ledger.holdsSigningKey());
    const QString firstId = ledger.signingKey().value().publicKey().keyId();
    auto *action = m_sample->window->findChild<QAction *>(u"newSigningKeyAction"_s);
    QVERIFY(action && action->isEnabled());

    action->trigger();
    QCOMPARE(m_sample->prompter->newSigningKeyQuestions, (QList<QStringList>{{firstId, firstId}}));
    QCOMPARE(ledger.publicKeys().size(), 1);

    m_sample->prompter->newSigningKeyAnswer = true;
    action->trigger();
    // One at a time: a second trigger while the first is under way asks nothing.
    QVERIFY(!action->isEnabled());
    action->trigger();
    QTRY_COMPARE(m_sample->prompter->infos.size(), 1);
    QCOMPARE(m_sample->prompter->newSigningKeyQuestions.size(), 2);
    QTRY_VERIFY(action->isEnabled());
    QCOMPARE(m_sample->prompter->errors, QStringList());
    const QList<PublicKey> keys = ledger.publicKeys();
    QCOMPARE(keys.size(), 2);
    const QString newId = keys.constFirst().keyId();
    QVERIFY(newId != firstId);
    QVERIFY2(m_sample->prompter->infos.constFirst().contains(newId),
             qPrintable(m_sample->prompter->infos.constFirst()));

    m_sample->window->runActions()->invoke();
    QTRY_COMPARE(receiptsOf(u"NOW"_s).size(), 2);
    // One receipt signed by each key.
    int byNewKey = 0;
    for (const Receipt &receipt : receiptsOf(u"NOW"_s))
        byNewKey += keys.constFirst().verify(receipt.signedBytes(),
                                             QByteArray::fromBase64(receipt.signature.toLatin1()));
    QCOMPARE(byNewKey, 1);
    // Whoever holds the first key trusts the new one's chain.
    const auto store = SqlDirectoryStore::open(m_sample->path);
    QVERIFY(store.ok());
    const StoreResult<ReceiptLogAudit::Report> audit =
        ReceiptLogAudit::run(store.value()->database(), {keys.constLast()});
    QVERIFY(audit.ok());
    QVERIFY2(audit.value().intact(), qPrintable(audit.value().summary()));
}

// The status bar cuts a long message at the window's edge; View → Messages has it whole.
void TestRunActions::longMessagesAreKeptWhole()
{
    const QString message = u"Cannot read the directory: "_s + QString(400, u'x') + u" (end)"_s;
    emit m_sample->window->fileActions()->statusMessage(message);
    QCOMPARE(m_sample->window->statusBar()->currentMessage(), message);
    // A menu's hint passes through the status bar but is no message.
    m_sample->window->statusBar()->showMessage(u"a status tip"_s);
    m_sample->window->findChild<QAction *>(u"messagesAction"_s)->trigger();
    QVERIFY(m_sample->window->messageLog()->isVisible());
    QVERIFY(m_sample->window->messageLog()->text().endsWith(message));
    QVERIFY(!m_sample->window->messageLog()->text().contains(u"a status tip"_s));
}

void TestRunActions::aDebuggerReceiptLinkOpensTheReceiptsDock()
{
    QVERIFY(m_sample->window->tableView()->selectKey(u"NOW"_s));
    m_sample->window->runActions()->invoke();
    InvokePanel *invoke = m_sample->window->callPanel()->invokePanel();
    QTRY_COMPARE(invoke->history()->rowCount(), 1);
    const QString id = invoke->history()->entryAt(0)->invocationId();
    QVERIFY(!id.isEmpty());
    emit m_sample->window->flowPane()->receiptRequested(id);
    QTRY_VERIFY(!m_sample->window->receiptsPane()->visibleRegion().isEmpty());
    QTRY_COMPARE(m_sample->window->receiptsPane()->viewer()->selectedInvocation(), id);
}

QTEST_MAIN(TestRunActions)
#include "tst_runactions.moc"
