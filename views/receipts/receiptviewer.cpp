#include "views/receipts/receiptviewer.h"

#include "dispatch/invoke/directoryledger.h"
#include "dispatch/receipts/receiptsummaryreader.h"
#include "dispatch/store/directorystore.h"
#include "models/receiptinspection.h"
#include "models/receipttablemodel.h"
#include "models/receipttreemodel.h"
#include "views/common/elidedlabel.h"
#include "views/common/prompter.h"
#include "views/common/themecolors.h"
#include "views/common/viewportnote.h"
#include "views/common/wrappedlabel.h"
#include "views/invoke/durationplot.h"
#include "views/receipts/receiptdetailview.h"
#include "views/receipts/receiptfileverificationdialog.h"
#include "views/receipts/receiptfilterbar.h"

#include <QClipboard>
#include <QDateTime>
#include <QDir>
#include <QFutureWatcher>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonDocument>
#include <QLocale>
#include <QPushButton>
#include <QSaveFile>
#include <QScrollArea>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QTimer>
#include <QTreeView>
#include <QVBoxLayout>

#include <QtConcurrent/QtConcurrentRun>
#include <utility>

ReceiptViewer::ReceiptViewer(std::shared_ptr<DirectoryLedger> ledger, Prompter &prompter, QWidget *parent)
    : QWidget(parent), m_ledger(std::move(ledger)), m_prompter(prompter),
      m_model(new ReceiptTableModel(this)), m_treeModel(new ReceiptTreeModel(this)),
      m_header(new ElidedLabel(this)), m_keyProblem(new WrappedLabel(this)),
      m_filterBar(new ReceiptFilterBar(this)), m_table(new QTableView(this)),
      m_emptyNote(new ViewportNote(m_table)), m_detail(new ReceiptDetailView(this)),
      m_tree(new QTreeView(this)), m_plot(new DurationPlot(this)), m_side(new QTabWidget(this)),
      m_follow(new QTimer(this))
{
    m_follow->setObjectName(QStringLiteral("receiptFollow"));
    m_follow->setInterval(kFollowIntervalMs);
    connect(m_follow, &QTimer::timeout, this, [this] {
        // A read under way will be followed by the next look; none piles up behind it.
        if (m_loaded && !m_model->isLoading())
            m_model->refresh();
    });
    m_header->setObjectName(QStringLiteral("receiptHeader"));
    // A key that cannot be had is said whole, wrapped, with what to do about it: the one
    // line the header has would cut that away. A WrappedLabel, so that the dock still fits
    // its panel rather than scrolling as a whole while it shows.
    m_keyProblem->setObjectName(QStringLiteral("receiptKeyProblem"));
    m_keyProblem->setTextFormat(Qt::PlainText);
    m_keyProblem->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_keyProblem->setStyleSheet(ThemeColors::css(QColor(0xb0, 0x1c, 0x1c)));
    m_keyProblem->hide();
    auto *verify = new QPushButton(tr("Verify a Receipt File…"), this);
    auto *top = new QHBoxLayout;
    top->addWidget(m_header, 1);
    top->addWidget(verify);

    configureTable();
    m_tree->setModel(m_treeModel);
    m_tree->setUniformRowHeights(true);
    m_tree->setRootIsDecorated(true);
    m_tree->header()->setStretchLastSection(true);
    m_tree->setColumnWidth(ReceiptTreeModel::InvocationColumn,
                           fontMetrics().horizontalAdvance(QStringLiteral("inv_0000000000"))
                               + 3 * m_tree->indentation());

    auto *detailScroll = new QScrollArea(this);
    detailScroll->setWidget(m_detail);
    detailScroll->setWidgetResizable(true);
    detailScroll->setFrameShape(QFrame::NoFrame);
    detailScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    // Tabs rather than three panes stacked: in a laptop's dock (under 200 px) stacked panes
    // needed more than the dock had, so the dock scrolled as a whole around the details'
    // own scrolling, and each pane got a sliver.
    m_side->setObjectName(QStringLiteral("receiptSide"));
    m_side->setDocumentMode(true);
    m_side->addTab(detailScroll, tr("Details"));
    m_side->addTab(m_tree, tr("Call tree"));
    m_side->addTab(m_plot, tr("Durations"));
    m_side->setTabToolTip(TreeTab, tr("The calls of the selected receipt's trace: its flow, the steps, and "
                                      "their own calls"));
    m_side->setTabToolTip(PlotTab, tr("How long the selected receipt's key took, call after call"));
    auto *split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(m_table);
    split->addWidget(m_side);
    // The table's columns, Status whole, before the details: on a laptop screen the
    // details wrap, and a cut status read as another one.
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 1);
    split->setSizes({820, 400});

    auto *layout = new QVBoxLayout(this);
    // As the Lint panel's: the dock's frame is margin enough, and each pixel is a table row's.
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(top);
    layout->addWidget(m_keyProblem);
    layout->addWidget(m_filterBar);
    layout->addWidget(split, 1);

    connect(verify, &QPushButton::clicked, this, &ReceiptViewer::verifyReceiptFile);
    connect(m_filterBar, &ReceiptFilterBar::filterChanged, m_model, &ReceiptTableModel::setFilter);
    connect(m_model, &ReceiptTableModel::countsChanged, this, &ReceiptViewer::describeList);
    // A first receipt written elsewhere (capdeskctl, a server) made the key.
    connect(m_model, &ReceiptTableModel::countsChanged, this, [this] {
        if (m_keyPending && m_model->totalReceipts() > 0)
            checkKeyStorage();
    });
    connect(m_model, &ReceiptTableModel::choicesChanged, this, [this] {
        m_filterBar->setStatuses(m_model->statuses());
        m_filterBar->setActors(m_model->actors());
    });
    connect(m_model, &ReceiptTableModel::loadFinished, this, [this](const QString &error) {
        if (!error.isEmpty())
            m_prompter.showError(tr("Receipts"), error);
        // Asked for before the read that lists it: select it now if it came.
        if (const QString pending = std::exchange(m_pendingInvocation, QString()); !pending.isEmpty())
            selectListed(pending);
        else if (std::exchange(m_selectFirst, false) && m_model->rowCount() > 0
                 && !m_table->currentIndex().isValid())
            selectRow(0);
        describeList();
    });
    connect(m_model, &QAbstractItemModel::modelReset, this, &ReceiptViewer::keepShownSelected);
    connect(m_model, &ReceiptTableModel::archivedSince, this, [this] {
        // The receipt shown may be one of those archived: the pane says so now.
        if (!m_detail->invocationId().isEmpty())
            showDetails(m_detail->invocationId());
    });
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex &current) {
                // A receipt filtered away leaves no current row; the pane keeps what it showed.
                if (current.isValid())
                    showDetails(current.data(ReceiptTableModel::InvocationIdRole).toString());
            });
    connect(m_tree, &QTreeView::activated, this, [this](const QModelIndex &index) {
        showInvocation(index.data(ReceiptTreeModel::InvocationIdRole).toString());
    });
    connect(m_detail, &ReceiptDetailView::rowRequested, this, &ReceiptViewer::rowRequested);
    connect(m_detail, &ReceiptDetailView::invocationRequested, this, &ReceiptViewer::showInvocation);
    connect(m_detail, &ReceiptDetailView::copyRequested, this, &ReceiptViewer::copySelected);
    connect(m_detail, &ReceiptDetailView::exportRequested, this, &ReceiptViewer::exportSelected);
    describeList();
}

ReceiptViewer::~ReceiptViewer() = default;

void ReceiptViewer::configureTable()
{
    m_table->setModel(m_model);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setWordWrap(false);
    m_table->setAlternatingRowColors(true);
    m_table->setShowGrid(false);
    m_table->setVerticalScrollMode(QAbstractItemView::ScrollPerPixel);
    // Heights and widths come from the font, never from the content: measuring walks
    // every one of 100,000 rows.
    QHeaderView *rows = m_table->verticalHeader();
    rows->setSectionResizeMode(QHeaderView::Fixed);
    rows->setDefaultSectionSize(fontMetrics().height() + 8);
    rows->hide();
    QHeaderView *columns = m_table->horizontalHeader();
    columns->setSectionResizeMode(QHeaderView::Interactive);
    columns->setHighlightSections(false);
    columns->setStretchLastSection(true);
    const int character = fontMetrics().averageCharWidth();
    auto width = [character](int characters) { return character * characters + 24; };
    m_table->setColumnWidth(ReceiptTableModel::TimeColumn,
                            fontMetrics().horizontalAdvance(ReceiptTableModel::timeText(0)) + 16);
    m_table->setColumnWidth(ReceiptTableModel::KeyColumn, width(16));
    m_table->setColumnWidth(ReceiptTableModel::RunnerColumn, width(5));
    m_table->setColumnWidth(ReceiptTableModel::ActorColumn, width(12));
    m_table->setColumnWidth(ReceiptTableModel::DurationColumn, width(7));
    m_table->setColumnWidth(ReceiptTableModel::MaterialColumn, width(6));
}

void ReceiptViewer::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    // Deferred, so the window is shown before the receipts are read.
    if (!m_loaded)
        QTimer::singleShot(0, this, &ReceiptViewer::reload);
    m_follow->start();
}

void ReceiptViewer::hideEvent(QHideEvent *event)
{
    QWidget::hideEvent(event);
    m_follow->stop();
}

void ReceiptViewer::checkKeyStorage()
{
    // Looking at receipts must not make a key; the first real call does.
    const bool wasPending = std::exchange(m_keyPending, m_ledger->publicKeys().isEmpty());
    if (wasPending && !m_keyPending)
        emit signingKeyMade();
    if (m_keyPending) {
        m_keyStorage = tr("No signing key yet: one is made on the first call");
    } else {
        m_keyStorage = tr("Looking for the signing key\u2026");
        m_ledger->unlockAsync(this, [this](const StoreError &error) {
            m_keyStorage = error.isError() ? tr("The signing key is unavailable (see below)")
                                           : m_ledger->keyStorage().value();
            // The ledger's sentence ("cannot sign receipts: …"), opened with a capital.
            QString problem = error.message;
            if (!problem.isEmpty())
                problem[0] = problem[0].toUpper();
            m_keyProblem->setText(problem);
            m_keyProblem->setVisible(error.isError());
            describeList();
        });
    }
}

void ReceiptViewer::recheckSigningKey()
{
    checkKeyStorage();
    describeList();
}

void ReceiptViewer::reload()
{
    checkKeyStorage();
    if (m_loaded) {
        m_model->refresh();
        if (!m_detail->invocationId().isEmpty())
            showDetails(m_detail->invocationId());
        describeList();
        return;
    }
    m_loaded = true;
    m_selectFirst = true;
    m_model->loadProgressively(m_ledger->receiptSummaries());
    describeList();
}

void ReceiptViewer::describeList()
{
    const qint64 total = m_model->totalReceipts();
    const QString all =
        total < 0 ? tr("counting the receipts\u2026") : ReceiptTableModel::receiptsText(total);
    // Filtered, the list holds what the pages read so far found; "+" while more may come.
    QString text = m_model->filter().isEmpty()
                       ? all
                       : tr("%1%2 of %3")
                             .arg(QLocale().toString(m_model->rowCount()),
                                  m_model->isComplete() ? QString() : QStringLiteral("+"), all);
    if (m_model->isReadingPages())
        text += tr(" (reading\u2026)");
    if (!m_model->archivedBefore().isEmpty())
        text +=
            tr(" · receipts started before %1 UTC are archived in segment files (capdeskctl confirm INV_ID "
               "--archive FILE)")
                .arg(archiveCutoffText());
    if (!m_keyStorage.isEmpty())
        text += QStringLiteral(" · ") + m_keyStorage;
    m_header->setFullText(text);
    const QString emptyList = emptyListText();
    m_emptyNote->setNote(emptyList);
    m_detail->prompt(!emptyList.isEmpty());
    m_plot->setListEmpty(!emptyList.isEmpty());
}

QString ReceiptViewer::emptyListText() const
{
    // Not while the first page or count is on its way; a follow-up look every few seconds
    // leaves the note standing rather than blinking it away.
    if (!m_loaded || m_model->rowCount() > 0 || !m_model->isComplete() || m_model->totalReceipts() < 0)
        return {};
    if (!m_model->filter().isEmpty())
        return tr("No receipt matches these filters.");
    if (!m_model->archivedBefore().isEmpty())
        return tr("No receipts left in the directory: every one was started before %1 UTC and is "
                  "archived in a segment file (capdeskctl confirm INV_ID --archive FILE).")
            .arg(archiveCutoffText());
    return tr("No receipts yet. Every call writes one, signed: Invoke under Shape and invoke, a "
              "flow run, capdeskctl invoke, or a call through capdeskctl serve or an MCP client.");
}

QString ReceiptViewer::archiveCutoffText() const
{
    const QDateTime before = QDateTime::fromString(m_model->archivedBefore(), Qt::ISODateWithMs).toUTC();
    // To the millisecond only where the cutoff has one, as `--before` was given.
    return before.toString(before.time().msec() == 0 ? QStringLiteral("yyyy-MM-dd HH:mm:ss")
                                                     : QStringLiteral("yyyy-MM-dd HH:mm:ss.zzz"));
}

QString ReceiptViewer::headerText() const
{
    return m_header->fullText();
}

QString ReceiptViewer::keyProblemText() const
{
    return m_keyProblem->isVisibleTo(this) ? m_keyProblem->text() : QString();
}

ReceiptFileVerificationDialog *ReceiptViewer::verificationDialog() const
{
    return m_verification;
}

QString ReceiptViewer::selectedInvocation() const
{
    return m_detail->invocationId();
}

void ReceiptViewer::selectRow(int row)
{
    const QModelIndex index = m_model->index(row, ReceiptTableModel::TimeColumn);
    m_table->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect
                                                          | QItemSelectionModel::Rows);
    m_table->scrollTo(index);
}

void ReceiptViewer::keepShownSelected()
{
    // A new filter's page replaces the rows: the receipt shown stays selected if listed,
    // without being read and drawn again.
    const int row = m_model->rowOfInvocation(m_detail->invocationId());
    if (row < 0)
        return;
    const QSignalBlocker quiet(m_table->selectionModel());
    m_table->selectionModel()->setCurrentIndex(m_model->index(row, ReceiptTableModel::TimeColumn),
                                               QItemSelectionModel::ClearAndSelect
                                                   | QItemSelectionModel::Rows);
}

bool ReceiptViewer::selectListed(const QString &invocationId)
{
    const int row = m_model->rowOfInvocation(invocationId);
    if (row < 0)
        return false;
    // Selecting a new current row shows it; the current one is shown again.
    if (m_table->currentIndex().row() == row)
        showDetails(invocationId);
    else
        selectRow(row);
    return true;
}

void ReceiptViewer::showInvocation(const QString &invocationId)
{
    // Asked for by id (a call-tree node, a flow's receipt link, the Invoke panel's): the
    // receipt is what is to be seen, whichever tab was up.
    m_side->setCurrentIndex(DetailsTab);
    if (selectListed(invocationId))
        return;
    // Not listed: a filter hides it, or it came after the last look, or it is older than
    // the pages read so far. It is shown from the log now and selected if a read brings it.
    m_pendingInvocation = invocationId;
    // The row selected until now is another receipt's: it must not look like this one.
    m_table->selectionModel()->clear();
    if (!m_model->filter().isEmpty())
        m_filterBar->clear();
    else
        m_model->refresh();
    showDetails(invocationId);
}

void ReceiptViewer::showDetails(const QString &invocationId)
{
    const StoreResult<ReceiptInspection> inspection = ReceiptInspection::of(*m_ledger, invocationId);
    if (!inspection.ok()) {
        m_shownJson = {};
        const bool archived =
            inspection.error().kind == StoreError::Kind::NotFound && !m_model->archivedBefore().isEmpty();
        m_detail->showMessage(archived
                                  ? tr("%1 is no longer in the directory: receipts started before %2 UTC are "
                                       "archived (capdeskctl confirm %1 --archive FILE)")
                                        .arg(invocationId, archiveCutoffText())
                                  : inspection.error().message);
        m_treeModel->clear();
        m_plot->clear();
        return;
    }
    const Receipt &receipt = inspection.value().receipt;
    m_shownJson = inspection.value().json;
    m_detail->showInspection(inspection.value());
    showTrace(receipt.trace, invocationId);
    plotDurations(receipt);
}

void ReceiptViewer::showTrace(const QString &trace, const QString &invocationId)
{
    ReceiptSummaryTable receipts;
    const StoreError error = m_ledger->receiptSummaries()->trace(
        trace, [&receipts](const ReceiptSummaryView &receipt) { receipts.append(receipt); });
    if (error.isError()) {
        m_treeModel->clear();
        return;
    }
    m_treeModel->showTraceOf(receipts, invocationId);
    m_tree->expandAll();
    const QModelIndex marked = m_treeModel->indexOfInvocation(invocationId);
    m_tree->setCurrentIndex(marked);
    m_tree->scrollTo(marked);
}

namespace {

// What each point of a bucketed plot is the slowest receipt of; empty for one receipt each.
QString bucketText(ReceiptSummaryReader::Bucket bucket)
{
    using Bucket = ReceiptSummaryReader::Bucket;
    switch (bucket) {
    case Bucket::Receipt:
        return {};
    case Bucket::Minute:
        return QCoreApplication::translate("ReceiptViewer", "minute");
    case Bucket::Hour:
        return QCoreApplication::translate("ReceiptViewer", "hour");
    case Bucket::Day:
        return QCoreApplication::translate("ReceiptViewer", "day");
    case Bucket::Month:
        return QCoreApplication::translate("ReceiptViewer", "month");
    case Bucket::Year:
        return QCoreApplication::translate("ReceiptViewer", "year");
    }
    return {};
}

} // namespace

void ReceiptViewer::plotDurations(const Receipt &receipt)
{
    const QByteArray startedAt = receipt.startedAt.toUtf8();
    const QPointF marked(double(ReceiptSummaryTable::parseIsoMsecs(
                             std::string_view(startedAt.constData(), std::size_t(startedAt.size())))),
                         double(receipt.durationMs));
    // A key with a million receipts takes a moment to bucket: read on a worker, and only
    // the latest request is drawn.
    const quint64 request = ++m_plotRequests;
    using Plotted = StoreResult<ReceiptSummaryReader::Durations>;
    // A child of the viewer: closed first, it drops the answer rather than draw on nothing.
    auto *watcher = new QFutureWatcher<Plotted>(this);
    connect(watcher, &QFutureWatcherBase::finished, this,
            [this, watcher, request, key = receipt.key, marked] {
                watcher->deleteLater();
                if (request != m_plotRequests)
                    return;
                const Plotted durations = watcher->result();
                if (durations.ok())
                    m_plot->setSeries(key, durations.value().points, marked,
                                      bucketText(durations.value().bucket));
                else
                    m_plot->clear();
                emit plotted();
            });
    watcher->setFuture(
        QtConcurrent::run([receipts = m_ledger->receiptSummaries(), key = receipt.key]() mutable {
            Plotted durations = receipts->durations(key, kPlotPoints);
            // Perhaps the last hold on the store: it is closed on its own thread, not here.
            QMetaObject::invokeMethod(
                QCoreApplication::instance(), [receipts = std::move(receipts)] {}, Qt::QueuedConnection);
            return durations;
        }));
}

void ReceiptViewer::copySelected()
{
    if (m_shownJson.isEmpty())
        return;
    QGuiApplication::clipboard()->setText(
        QString::fromUtf8(QJsonDocument(m_shownJson).toJson(QJsonDocument::Indented)));
}

void ReceiptViewer::exportSelected()
{
    if (m_shownJson.isEmpty())
        return;
    const QString suggested = QDir::home().filePath(m_detail->invocationId() + QStringLiteral(".json"));
    const QString path = m_prompter.chooseReceiptExportPath(suggested);
    if (path.isEmpty())
        return;
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)
        || file.write(QJsonDocument(m_shownJson).toJson(QJsonDocument::Indented)) < 0 || !file.commit())
        m_prompter.showError(tr("Export Receipt"), tr("Cannot write %1: %2").arg(path, file.errorString()));
}

void ReceiptViewer::verifyReceiptFile()
{
    auto *dialog = new ReceiptFileVerificationDialog(*m_ledger, m_prompter, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    if (!dialog->chooseReceiptFile()) {
        delete dialog;
        return;
    }
    if (m_verification)
        m_verification->close();
    m_verification = dialog;
    dialog->open();
}
