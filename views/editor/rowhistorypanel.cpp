#include "views/editor/rowhistorypanel.h"

#include "dispatch/receipts/directoryhistory.h"
#include "dispatch/row/row.h"
#include "dispatch/store/rowrestore.h"
#include "models/rowdiffmodel.h"
#include "models/rowhistorymodel.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSplitter>
#include <QStackedWidget>
#include <QTableView>
#include <QVBoxLayout>
#include <QtConcurrent>

namespace {

enum Page { MessagePage, VersionsPage };

const QString kBrokenStyle = QStringLiteral("color: #b3261e;");

QTableView *makeTable(QWidget *parent, const QString &name)
{
    auto *table = new QTableView(parent);
    table->setObjectName(name);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->setSelectionMode(QAbstractItemView::SingleSelection);
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->verticalHeader()->hide();
    table->horizontalHeader()->setStretchLastSection(true);
    return table;
}

} // namespace

RowHistoryPanel::RowHistoryPanel(QWidget *parent)
    : QWidget(parent), m_versionsModel(new RowHistoryModel(this)), m_diff(new RowDiffModel(this)),
      m_chainState(new QLabel(this)), m_pages(new QStackedWidget(this)), m_message(new QLabel(m_pages))
{
    m_chainState->setObjectName(QStringLiteral("historyChainState"));
    m_chainState->setWordWrap(true);
    m_chainState->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_message->setObjectName(QStringLiteral("historyMessage"));
    m_message->setAlignment(Qt::AlignCenter);
    m_message->setWordWrap(true);
    m_message->setStyleSheet(QStringLiteral("color: palette(mid);"));
    m_pages->insertWidget(MessagePage, m_message);
    m_pages->insertWidget(VersionsPage, buildVersions());

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 4, 0, 0);
    layout->addWidget(m_chainState);
    layout->addWidget(m_pages, 1);

    connect(&m_chainWatcher, &QFutureWatcherBase::finished, this, [this] {
        const ChainCheck check = m_chainWatcher.result();
        m_checkedHistory.reset();
        showChainState(check);
        if (std::exchange(m_checkAgain, false))
            checkChain();
    });
    showVersions();
}

RowHistoryPanel::~RowHistoryPanel()
{
    // The worker reads through m_checkedHistory; it must be done before that goes.
    m_chainWatcher.waitForFinished();
}

QWidget *RowHistoryPanel::buildVersions()
{
    auto *splitter = new QSplitter(Qt::Vertical);
    m_versions = makeTable(splitter, QStringLiteral("historyVersions"));
    m_versions->setModel(m_versionsModel);
    m_versions->horizontalHeader()->setSectionResizeMode(RowHistoryModel::TimeColumn,
                                                         QHeaderView::ResizeToContents);
    // A version picked in the list is compared with the one before it (the "from" list
    // ends with "no row yet", so the first version has one too).
    auto compareWithPrevious = [this](const QModelIndex &index) {
        chooseVersions(index.row(), index.row() + 1);
    };
    connect(m_versions, &QTableView::clicked, this, compareWithPrevious);
    connect(m_versions, &QTableView::activated, this, compareWithPrevious);

    auto *diffBox = new QWidget(splitter);
    m_from = new QComboBox(diffBox);
    m_from->setObjectName(QStringLiteral("historyFrom"));
    m_to = new QComboBox(diffBox);
    m_to->setObjectName(QStringLiteral("historyTo"));
    for (QComboBox *choice : {m_from, m_to}) {
        choice->setSizeAdjustPolicy(QComboBox::AdjustToContents);
        connect(choice, &QComboBox::currentIndexChanged, this, &RowHistoryPanel::showDiff);
    }
    auto *fromLabel = new QLabel(tr("From"), diffBox);
    fromLabel->setBuddy(m_from);
    auto *toLabel = new QLabel(tr("To"), diffBox);
    toLabel->setBuddy(m_to);
    auto *choices = new QHBoxLayout;
    choices->addWidget(fromLabel);
    choices->addWidget(m_from);
    choices->addWidget(toLabel);
    choices->addWidget(m_to);
    choices->addStretch();

    m_diffView = makeTable(diffBox, QStringLiteral("historyDiff"));
    m_diffView->setModel(m_diff);
    m_diffView->setWordWrap(true);
    m_diffView->setTextElideMode(Qt::ElideNone);
    m_diffView->horizontalHeader()->setSectionResizeMode(RowDiffModel::FieldColumn,
                                                         QHeaderView::ResizeToContents);
    m_diffView->horizontalHeader()->setSectionResizeMode(RowDiffModel::BeforeColumn, QHeaderView::Stretch);
    m_diffView->horizontalHeader()->setSectionResizeMode(RowDiffModel::AfterColumn, QHeaderView::Stretch);
    m_noDifference = new QLabel(tr("The two versions hold the same values."), diffBox);
    m_noDifference->setObjectName(QStringLiteral("historyNoDifference"));
    // The rollback other registries do not have: an older version becomes an ordinary,
    // undoable draft that the save gates and logs as a restore.
    m_restore = new QPushButton(tr("Restore this version"), diffBox);
    m_restore->setObjectName(QStringLiteral("historyRestore"));
    m_restore->setToolTip(tr("Put the version shown as To back into the editor as an unsaved draft: "
                             "undo takes it back, Save writes it and logs it as a restore."));
    connect(m_restore, &QPushButton::clicked, this, &RowHistoryPanel::requestRestore);
    m_restoreNote = new QLabel(diffBox);
    m_restoreNote->setObjectName(QStringLiteral("historyRestoreNote"));
    m_restoreNote->setWordWrap(true);
    choices->addWidget(m_restore);

    auto *layout = new QVBoxLayout(diffBox);
    layout->setContentsMargins(0, 4, 0, 0);
    layout->addLayout(choices);
    layout->addWidget(m_restoreNote);
    layout->addWidget(m_noDifference);
    layout->addWidget(m_diffView, 1);

    splitter->addWidget(m_versions);
    splitter->addWidget(diffBox);
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 3);
    splitter->setSizes({150, 450}); // the diff, not the list, needs the room
    splitter->setChildrenCollapsible(false);
    return splitter;
}

void RowHistoryPanel::setHistory(std::shared_ptr<const DirectoryHistory> history)
{
    m_history = std::move(history);
    m_versionsModel->setHistory(m_history);
    reload();
}

void RowHistoryPanel::setKey(const QString &key)
{
    if (key == m_key)
        return;
    m_key = key;
    // The chain does not depend on the key: only the versions are read again.
    if (!isVisible()) {
        m_stale = true;
        return;
    }
    m_versionsModel->setKey(m_key);
    showVersions();
}

void RowHistoryPanel::reload()
{
    if (!isVisible()) {
        m_stale = true;
        return;
    }
    m_stale = false;
    if (m_versionsModel->key() != m_key)
        m_versionsModel->setKey(m_key);
    else
        m_versionsModel->reload();
    showVersions();
    checkChain();
}

void RowHistoryPanel::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (m_stale)
        reload();
}

void RowHistoryPanel::showVersions()
{
    const int count = m_versionsModel->rowCount();
    if (!m_history)
        m_message->setText(tr("This directory keeps no event log."));
    else if (m_key.isEmpty())
        m_message->setText(tr("Select a saved row to see its history."));
    else if (count == 0)
        m_message->setText(tr("No saved versions of %1 yet.").arg(m_key));
    m_pages->setCurrentIndex(m_history && count > 0 ? VersionsPage : MessagePage);
    if (!m_history)
        m_chainState->clear();

    const QSignalBlocker fromBlocker(m_from);
    const QSignalBlocker toBlocker(m_to);
    m_from->clear();
    m_to->clear();
    for (int row = 0; row < count; ++row) {
        const LogEvent *event = m_versionsModel->eventAt(row);
        const QString label = tr("#%1 %2 · %3").arg(event->seq).arg(event->action, event->at);
        m_from->addItem(label);
        m_to->addItem(label);
    }
    m_from->addItem(tr("no row yet"));
    chooseVersions(0, 1);
}

void RowHistoryPanel::chooseVersions(int to, int from)
{
    {
        const QSignalBlocker fromBlocker(m_from);
        const QSignalBlocker toBlocker(m_to);
        m_to->setCurrentIndex(to);
        m_from->setCurrentIndex(from);
    }
    showDiff();
}

void RowHistoryPanel::showDiff()
{
    // A version is the row as its write left it; the last "from" entry is no row at all.
    auto state = [this](int row) {
        const LogEvent *event = m_versionsModel->eventAt(row);
        return event ? event->after : QJsonValue(QJsonValue::Null);
    };
    m_diff->setVersions(state(m_from->currentIndex()), state(m_to->currentIndex()));
    m_diffView->resizeRowsToContents();
    m_noDifference->setVisible(m_diff->rowCount() == 0);
    m_diffView->setVisible(m_diff->rowCount() > 0);
    m_versions->selectRow(m_to->currentIndex());
    const LogEvent *to = m_versionsModel->eventAt(m_to->currentIndex());
    // A delete's version is no row: there is nothing to put back.
    m_restore->setEnabled(to && to->after.isObject());
    m_restore->setText(to ? tr("Restore version #%1").arg(to->seq) : tr("Restore this version"));
    m_restoreNote->clear();
    m_restoreNote->hide();
}

void RowHistoryPanel::requestRestore()
{
    const LogEvent *to = m_versionsModel->eventAt(m_to->currentIndex());
    if (!to || !to->after.isObject())
        return;
    const StoreResult<Row> version = RowRestore::versionOf(*to);
    if (!version.ok()) {
        setRestoreNote(version.error().message);
        return;
    }
    emit restoreRequested(version.value(), to->seq);
}

void RowHistoryPanel::setRestoreNote(const QString &text)
{
    m_restoreNote->setText(text);
    m_restoreNote->setVisible(!text.isEmpty());
}

void RowHistoryPanel::checkChain()
{
    if (!m_history)
        return;
    if (m_chainWatcher.isRunning()) {
        m_checkAgain = true;
        return;
    }
    if (m_chainState->text().isEmpty())
        m_chainState->setText(tr("Checking the event log…"));
    m_checkedHistory = m_history;
    const DirectoryHistory *history = m_checkedHistory.get();
    m_chainWatcher.setFuture(QtConcurrent::run([history] {
        ChainCheck check;
        // The public keys the file lists: the GUI trusts them, where `capdeskctl log
        // --verify` trusts only the key whose private half it holds.
        const StoreResult<ReceiptLogAudit::Report> audited = history->auditTrustingListedKeys();
        if (audited.ok())
            check.report = audited.value();
        else
            check.readError = audited.error().message;
        return check;
    }));
}

void RowHistoryPanel::showChainState(const ChainCheck &check)
{
    const bool intact = check.readError.isEmpty() && check.report.intact();
    if (!check.readError.isEmpty())
        m_chainState->setText(tr("Event log cannot be read: %1").arg(check.readError));
    else
        m_chainState->setText(check.report.summary());
    m_chainState->setStyleSheet(intact ? QString() : kBrokenStyle);
    m_chainState->setToolTip(
        intact ? tr(
            "Every event's hash matches its content and links to the one before it, and every receipt is "
            "in its writer's chain, which ends at its signed head.")
               : QString());
    emit chainChecked(intact);
}
