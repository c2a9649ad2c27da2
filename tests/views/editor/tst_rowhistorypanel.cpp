#include "dispatch/receipts/directoryhistory.h"
#include "models/directorydocument.h"
#include "tests/support/rawsql.h"
#include "tests/views/viewtestsupport.h"
#include "views/editor/roweditorpanel.h"
#include "views/editor/rowhistorypanel.h"

#include <QAbstractItemModel>
#include <QComboBox>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>

namespace {

QStringList column(const QAbstractItemModel *model, int col)
{
    QStringList values;
    for (int row = 0; row < model->rowCount(); ++row)
        values.append(model->index(row, col).data().toString());
    return values;
}

// The chain is verified on a worker thread; its verdict arrives as chainChecked().
bool waitForVerdict(QSignalSpy &spy)
{
    return !spy.isEmpty() || spy.wait(10000);
}

} // namespace

// RowHistoryPanel: versions, the diff between two of them, and the chain's state.
class TestRowHistoryPanel final : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void cleanup();
    void diffShowsExactlyTheChangedFields();
    void tamperedLogShowsTheBrokenState();
    void explainsWhenThereIsNothingToShow();
    void editorTabReloadsAfterASave();
    void restoreAVersionIsAnUndoableDraftLoggedAsARestore();

private:
    template<typename Widget>
    Widget *child(QWidget *parent, const QString &name)
    {
        auto *widget = parent->findChild<Widget *>(name);
        if (!widget)
            qWarning("no %s", qPrintable(name));
        return widget;
    }

    std::unique_ptr<QTemporaryDir> m_dir;
    QString m_path;
    std::shared_ptr<SqlDirectoryStore> m_store;
    std::unique_ptr<RowHistoryPanel> m_panel;
};

void TestRowHistoryPanel::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    m_path = m_dir->filePath(QStringLiteral("directory.db"));
    m_store = openStoreWithRows(m_path, sampleRows()); // five import events
    QVERIFY(m_store);
    m_panel = std::make_unique<RowHistoryPanel>();
    m_panel->resize(800, 700);
}

void TestRowHistoryPanel::cleanup()
{
    m_panel.reset();
    m_store.reset();
    m_dir.reset();
}

void TestRowHistoryPanel::diffShowsExactlyTheChangedFields()
{
    const QString key = QStringLiteral("ECHO_BACK");
    QVERIFY(m_store->patch(key, {{QStringLiteral("target"), QStringLiteral("upper")}}).ok());
    QVERIFY(
        m_store
            ->patch(key, {{QStringLiteral("category"), QStringLiteral("tools")},
                          {QStringLiteral("content"), QStringLiteral("# WHAT: echo it back\n[\"$1\"]\n")}})
            .ok());

    QSignalSpy checked(m_panel.get(), &RowHistoryPanel::chainChecked);
    m_panel->setHistory(std::make_shared<DirectoryHistory>(m_store));
    m_panel->setKey(key);
    m_panel->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_panel.get()));

    auto *versions = child<QTableView>(m_panel.get(), QStringLiteral("historyVersions"));
    auto *from = child<QComboBox>(m_panel.get(), QStringLiteral("historyFrom"));
    auto *to = child<QComboBox>(m_panel.get(), QStringLiteral("historyTo"));
    auto *diff = child<QTableView>(m_panel.get(), QStringLiteral("historyDiff"));
    QVERIFY(versions && from && to && diff);
    QVERIFY(versions->isVisible());
    QCOMPARE(column(versions->model(), 1),
             (QStringList{QStringLiteral("patch"), QStringLiteral("patch"), QStringLiteral("import")}));
    QCOMPARE(column(versions->model(), 2), QStringList(3, QStringLiteral("owner:local")));

    // By default: the previous version against the latest.
    QCOMPARE(to->currentIndex(), 0);
    QCOMPARE(from->currentIndex(), 1);
    QCOMPARE(column(diff->model(), 0), (QStringList{QStringLiteral("content"), QStringLiteral("category")}));
    QCOMPARE(diff->model()->index(1, 1).data().toString(), QStringLiteral("text"));
    QCOMPARE(diff->model()->index(1, 2).data().toString(), QStringLiteral("tools"));
    QCOMPARE(diff->model()->index(0, 1).data().toString(), QStringLiteral("- # WHAT: echo\n  [\"$1\"]\n  "));
    QCOMPARE(diff->model()->index(0, 2).data().toString(),
             QStringLiteral("+ # WHAT: echo it back\n  [\"$1\"]\n  "));

    // Any two versions: the import against the latest.
    from->setCurrentIndex(2);
    QCOMPARE(column(diff->model(), 0),
             (QStringList{QStringLiteral("target"), QStringLiteral("content"), QStringLiteral("category")}));
    // A version picked in the list is compared with the one before it.
    QTest::mouseClick(versions->viewport(), Qt::LeftButton, {},
                      versions->visualRect(versions->model()->index(1, 1)).center());
    QCOMPARE(to->currentIndex(), 1);
    QCOMPARE(from->currentIndex(), 2);
    QCOMPARE(column(diff->model(), 0), QStringList{QStringLiteral("target")});
    // The first version against no row at all: everything it set.
    QTest::mouseClick(versions->viewport(), Qt::LeftButton, {},
                      versions->visualRect(versions->model()->index(2, 1)).center());
    QCOMPARE(from->currentText(), QStringLiteral("no row yet"));
    QVERIFY(column(diff->model(), 0).contains(QStringLiteral("key")));
    // The same version on both sides differs in nothing.
    to->setCurrentIndex(1);
    from->setCurrentIndex(1);
    QCOMPARE(diff->model()->rowCount(), 0);
    QVERIFY(child<QLabel>(m_panel.get(), QStringLiteral("historyNoDifference"))->isVisible());

    QVERIFY(waitForVerdict(checked));
    QCOMPARE(checked.last().at(0).toBool(), true);
    QCOMPARE(child<QLabel>(m_panel.get(), QStringLiteral("historyChainState"))->text(),
             QStringLiteral("Event log intact (7 events)"));
}

void TestRowHistoryPanel::tamperedLogShowsTheBrokenState()
{
    QVERIFY(
        m_store->patch(QStringLiteral("NOW"), {{QStringLiteral("target"), QStringLiteral("today")}}).ok());
    QSignalSpy checked(m_panel.get(), &RowHistoryPanel::chainChecked);
    m_panel->setHistory(std::make_shared<DirectoryHistory>(m_store));
    m_panel->setKey(QStringLiteral("NOW"));
    m_panel->show();
    QVERIFY(waitForVerdict(checked));
    QCOMPARE(checked.last().at(0).toBool(), true);
    auto *state = child<QLabel>(m_panel.get(), QStringLiteral("historyChainState"));
    QCOMPARE(state->text(), QStringLiteral("Event log intact (6 events)"));

    const QString failure =
        RawSql::exec(m_path, {QStringLiteral("DROP TRIGGER events_refuse_update"),
                              QStringLiteral("UPDATE events SET after_json = replace(after_json, "
                                             "'today', 'tomorrow') WHERE seq = 6")});
    QVERIFY2(failure.isEmpty(), qPrintable(failure));
    checked.clear();
    m_panel->reload();
    QVERIFY(waitForVerdict(checked));
    QCOMPARE(checked.last().at(0).toBool(), false);
    QCOMPARE(state->text(),
             QStringLiteral("Event log broken at #6: event #6 was altered: its hash does not match "
                            "its content"));
    QVERIFY(state->styleSheet().contains(QLatin1String("#b3261e")));
}

void TestRowHistoryPanel::explainsWhenThereIsNothingToShow()
{
    m_panel->show();
    auto *message = child<QLabel>(m_panel.get(), QStringLiteral("historyMessage"));
    QVERIFY(message);
    QCOMPARE(message->text(), QStringLiteral("This directory keeps no event log."));
    m_panel->setHistory(std::make_shared<DirectoryHistory>(m_store));
    QCOMPARE(message->text(), QStringLiteral("Select a saved row to see its history."));
    m_panel->setKey(QStringLiteral("NEW_ROW"));
    QVERIFY(message->isVisible());
    QCOMPARE(message->text(), QStringLiteral("No saved versions of NEW_ROW yet."));
    m_panel->setKey(QStringLiteral("NOW"));
    QVERIFY(!message->isVisible());
}

void TestRowHistoryPanel::editorTabReloadsAfterASave()
{
    DirectoryDocument document(m_store);
    QVERIFY(!document.load().isError());
    RowEditorPanel editor;
    editor.setDocument(&document);
    editor.setHistory(std::make_shared<DirectoryHistory>(m_store));
    editor.showRow(QStringLiteral("NOW"));
    editor.resize(800, 700);
    editor.show();
    QVERIFY(QTest::qWaitForWindowExposed(&editor));

    auto *tabs = editor.findChild<QTabWidget *>();
    QVERIFY(tabs);
    QCOMPARE(tabs->tabText(1), QStringLiteral("History"));
    QSignalSpy checked(editor.historyPanel(), &RowHistoryPanel::chainChecked);
    tabs->setCurrentIndex(1);
    // A tab's panel is placed once the tab is seen.
    QTRY_VERIFY(editor.historyPanel()->isVisible());
    QCOMPARE(editor.historyPanel()->key(), QStringLiteral("NOW"));
    auto *versions = child<QTableView>(editor.historyPanel(), QStringLiteral("historyVersions"));
    QCOMPARE(versions->model()->rowCount(), 1);

    document.setField(QStringLiteral("NOW"), QStringLiteral("target"), QStringLiteral("today"));
    QVERIFY(!document.save().isError());
    QCOMPARE(versions->model()->rowCount(), 2);
    QCOMPARE(versions->model()->index(0, 1).data().toString(), QStringLiteral("replace"));
    QTRY_COMPARE(child<QLabel>(editor.historyPanel(), QStringLiteral("historyChainState"))->text(),
                 QStringLiteral("Event log intact (6 events)"));
}

// The rollback: an old version comes back as a draft (undo drops it), the save is gated
// and logged as a `restore` naming the version, and the chain stays intact.
void TestRowHistoryPanel::restoreAVersionIsAnUndoableDraftLoggedAsARestore()
{
    const QString key = QStringLiteral("NOW");
    QVERIFY(m_store->patch(key, {{QStringLiteral("target"), QStringLiteral("today")}}).ok());
    QVERIFY(m_store->patch(key, {{QStringLiteral("category"), QStringLiteral("clock")}}).ok());
    DirectoryDocument document(m_store);
    QVERIFY(!document.load().isError());
    RowEditorPanel editor;
    editor.setDocument(&document);
    editor.setHistory(std::make_shared<DirectoryHistory>(m_store));
    editor.showRow(key);
    editor.resize(800, 700);
    editor.show();
    QVERIFY(QTest::qWaitForWindowExposed(&editor));
    auto *tabs = editor.findChild<QTabWidget *>();
    tabs->setCurrentIndex(1);
    RowHistoryPanel *history = editor.historyPanel();
    QTRY_VERIFY(history->isVisible());
    auto *versions = child<QTableView>(history, QStringLiteral("historyVersions"));
    auto *restore = child<QPushButton>(history, QStringLiteral("historyRestore"));
    auto *note = child<QLabel>(history, QStringLiteral("historyRestoreNote"));
    QVERIFY(versions && restore && note);
    QCOMPARE(versions->model()->rowCount(), 3);

    // The import: the row as it first came, target "now".
    QTest::mouseClick(versions->viewport(), Qt::LeftButton, {},
                      versions->visualRect(versions->model()->index(2, 1)).center());
    const QString importSeq = history->findChild<QComboBox *>(QStringLiteral("historyTo"))->currentText();
    QVERIFY(restore->isEnabled());
    QVERIFY(restore->text().startsWith(QStringLiteral("Restore version #")));
    const qint64 seq = restore->text().mid(QStringLiteral("Restore version #").size()).toLongLong();
    QVERIFY(importSeq.startsWith(u'#' + QString::number(seq)));
    QTest::mouseClick(restore, Qt::LeftButton);

    QVERIFY(document.isRowModified(key));
    QCOMPARE(document.row(key)->target, QStringLiteral("now"));
    QVERIFY(document.row(key)->category != QStringLiteral("clock"));
    QVERIFY(note->isVisible());
    QVERIFY2(note->text().startsWith(QStringLiteral("Version #%1 is now the unsaved draft of NOW").arg(seq)),
             qPrintable(note->text()));
    // Undo takes it back, and the note with it; redo brings it again.
    document.undoStack()->undo();
    QVERIFY(!document.isRowModified(key));
    QVERIFY(note->isHidden());
    QCOMPARE(document.row(key)->target, QStringLiteral("today"));
    document.undoStack()->redo();
    QCOMPARE(document.row(key)->target, QStringLiteral("now"));

    QVERIFY(!document.save().isError());
    QCOMPARE(m_store->row(key).value().target, QStringLiteral("now"));
    QTRY_COMPARE(versions->model()->rowCount(), 4);
    QCOMPARE(versions->model()->index(0, 1).data().toString(), QStringLiteral("restore of #%1").arg(seq));
    const QList<LogEvent> events = DirectoryHistory(m_store).events(key).value();
    QCOMPARE(events.first().action, QStringLiteral("restore"));
    QCOMPARE(events.first().detail.value(QStringLiteral("restores_seq")).toInteger(), seq);
    QTRY_COMPARE(child<QLabel>(history, QStringLiteral("historyChainState"))->text(),
                 QStringLiteral("Event log intact (8 events)"));

    // The version it now holds: nothing to restore.
    QTest::mouseClick(versions->viewport(), Qt::LeftButton, {},
                      versions->visualRect(versions->model()->index(0, 1)).center());
    QTest::mouseClick(restore, Qt::LeftButton);
    QVERIFY(!document.isRowModified(key));
    QCOMPARE(note->text(),
             QStringLiteral("NOW already holds the values of version #%1.").arg(events.first().seq));

    // A restore edited further is an ordinary edit.
    QTest::mouseClick(versions->viewport(), Qt::LeftButton, {},
                      versions->visualRect(versions->model()->index(1, 1)).center());
    QTest::mouseClick(restore, Qt::LeftButton);
    QCOMPARE(document.row(key)->category, QStringLiteral("clock"));
    document.setField(key, QStringLiteral("category"), QStringLiteral("time"));
    QVERIFY(!document.save().isError());
    QCOMPARE(DirectoryHistory(m_store).events(key).value().first().action, QStringLiteral("replace"));
}

QTEST_MAIN(TestRowHistoryPanel)
#include "tst_rowhistorypanel.moc"
