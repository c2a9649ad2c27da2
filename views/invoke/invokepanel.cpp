#include "views/invoke/invokepanel.h"

#include "dispatch/call/dispatcher.h"
#include "dispatch/row/argumentspec.h"
#include "models/directorydocument.h"
#include "views/common/elidedlabel.h"
#include "views/common/themecolors.h"
#include "views/common/worldeffectgate.h"
#include "views/invoke/invocationresultview.h"
#include "views/invoke/invocationwatch.h"

#include <QDateTime>
#include <QFontMetrics>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

InvokePanel::InvokePanel(Dispatcher &dispatcher, QWidget *parent)
    : QWidget(parent), m_dispatcher(dispatcher), m_history(new CallHistoryModel(this)),
      m_target(new ElidedLabel(this)), m_missing(new ElidedLabel(this)), m_caption(new QLabel(this)),
      m_invoke(new QPushButton(QIcon::fromTheme(QStringLiteral("media-playback-start")), tr("Invoke"), this)),
      m_cancel(new QPushButton(QIcon::fromTheme(QStringLiteral("process-stop")), tr("Cancel"), this)),
      m_busy(new QProgressBar(this)), m_result(new InvocationResultView), m_historyView(new QTableView)
{
    m_target->setObjectName(QStringLiteral("invokeTarget"));
    // Argument names and keys are the rows' text: plain, never rich text.
    m_missing->setObjectName(QStringLiteral("missingArguments"));
    m_missing->setStyleSheet(ThemeColors::css(QColor(0x9a, 0x67, 0x00)));
    m_missing->hide();
    m_caption->setObjectName(QStringLiteral("resultCaption"));
    m_caption->setTextFormat(Qt::PlainText);
    m_caption->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_caption->hide();
    m_invoke->setObjectName(QStringLiteral("invokeButton"));
    // Ctrl+Return is the Run menu's, which brings this panel forward before it runs anything.
    m_invoke->setToolTip(
        tr("Runs the row for real with these arguments (Ctrl+Return); unsaved edits included"));
    m_cancel->setObjectName(QStringLiteral("cancelButton"));
    m_busy->setObjectName(QStringLiteral("invokeBusy"));
    m_busy->setRange(0, 0); // indeterminate: a call has no progress to report
    m_busy->setMaximumWidth(120);
    m_busy->setTextVisible(false);

    // The panel's title opens its one row of controls: on a laptop's dock every line is
    // one the result does not get.
    auto *bar = new QHBoxLayout;
    bar->addWidget(new QLabel(tr("<b>Invoke</b> — run it for real"), this));
    bar->addSpacing(12);
    bar->addWidget(m_target, 1);
    bar->addWidget(m_busy);
    bar->addWidget(m_cancel);
    bar->addWidget(m_invoke);

    m_historyView->setObjectName(QStringLiteral("invocationHistory"));
    m_historyView->setModel(m_history);
    m_historyView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_historyView->setSelectionMode(QAbstractItemView::SingleSelection);
    m_historyView->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_historyView->verticalHeader()->hide();
    m_historyView->horizontalHeader()->setStretchLastSection(false);
    m_historyView->horizontalHeader()->setSectionResizeMode(CallHistoryModel::BodyColumn,
                                                            QHeaderView::Stretch);
    m_historyView->verticalHeader()->setDefaultSectionSize(QFontMetrics(font()).height() + 6);
    for (int column = CallHistoryModel::ResultColumn; column < CallHistoryModel::ColumnCount; ++column)
        m_historyView->hideColumn(column);
    // Its header and one call at the least, so that a laptop's dock holds the panel whole
    // rather than scrolling as one; the splitter gives it more where there is more.
    m_historyView->setMinimumHeight(m_historyView->horizontalHeader()->sizeHint().height()
                                    + m_historyView->verticalHeader()->defaultSectionSize()
                                    + 2 * m_historyView->frameWidth());

    auto *split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_result);
    split->addWidget(m_historyView);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    split->setChildrenCollapsible(false);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(m_missing);
    layout->addWidget(m_caption);
    layout->addWidget(split, 1);

    connect(m_invoke, &QPushButton::clicked, this, &InvokePanel::invoke);
    connect(m_cancel, &QPushButton::clicked, this, &InvokePanel::cancel);
    connect(m_historyView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex &current) { reopen(current.row()); });
    connect(m_historyView, &QAbstractItemView::activated, this,
            [this](const QModelIndex &index) { reopen(index.row()); });
    setBusy(false);
}

InvokePanel::~InvokePanel()
{
    // The handle deletes itself once the runner reports; this panel only stops listening.
    if (m_running)
        m_running->cancel();
}

void InvokePanel::setDocument(DirectoryDocument *document, const QString &directory)
{
    // A call of the previous directory may never report (its dispatcher went with it):
    // stop waiting for it rather than stay busy for good.
    if (m_running) {
        m_running->cancel();
        m_running = nullptr;
        setBusy(false);
    }
    if (directory != m_directory) {
        if (!m_history->entries().isEmpty())
            m_otherHistories.insert(m_directory, m_history->entries());
        m_history->setEntries(m_otherHistories.take(directory));
        m_directory = directory;
    }
    if (m_document)
        disconnect(m_document, nullptr, this, nullptr);
    m_document = document;
    // The shown row may go (an undone creation, a delete elsewhere): Invoke follows.
    if (m_document)
        connect(m_document, &DirectoryDocument::rowChanged, this, [this](const QString &key) {
            if (key == m_key)
                updateActions();
        });
    m_resultKey.clear();
    m_result->showMessage(tr("No call yet: press Invoke to run the row with these arguments."));
    showRow(QString());
}

void InvokePanel::showRow(const QString &key)
{
    m_key = key;
    updateActions();
    updateCaption();
}

void InvokePanel::setBody(const QString &body)
{
    m_body = body;
    updateActions();
}

QString InvokePanel::resultCaption() const
{
    return m_caption->isVisibleTo(this) ? m_caption->text() : QString();
}

QString InvokePanel::missingArgumentsWarning() const
{
    return m_missing->isVisibleTo(this) ? m_missing->fullText() : QString();
}

void InvokePanel::updateCaption()
{
    m_caption->setVisible(!m_resultKey.isEmpty());
    if (m_resultKey.isEmpty())
        return;
    const QString when = m_resultTime.toLocalTime().time().toString(QStringLiteral("HH:mm"));
    QString text = tr("Last result: %1 (%2)").arg(m_resultKey, when);
    const bool another = m_resultKey != m_key;
    if (another && !m_key.isEmpty())
        text += tr(", not %1").arg(m_key);
    m_caption->setText(text);
    // Greyed when it is another row's, so it is not read as the selected row's answer.
    m_caption->setEnabled(!another);
}

void InvokePanel::updateMissingArguments()
{
    const std::optional<Row> row = m_document && !m_key.isEmpty() ? m_document->row(m_key) : std::nullopt;
    QStringList names;
    if (row) {
        for (const ArgumentSlot &slot : ArgumentSpec::fromRow(*row).emptyIn(m_body))
            names << slot.name;
    }
    m_missing->setVisible(!names.isEmpty());
    const QString list = names.join(QStringLiteral(", "));
    if (names.isEmpty())
        m_missing->setFullText({});
    else if (names.size() == 1)
        m_missing->setFullText(tr("No value for %1: the call runs with it empty.").arg(list));
    else
        m_missing->setFullText(tr("No value for %1: the call runs with them empty.").arg(list));
}

void InvokePanel::invoke()
{
    const std::optional<Row> row = m_document && !m_key.isEmpty() ? m_document->row(m_key) : std::nullopt;
    if (!row || m_running)
        return;
    const QString key = m_key;
    const QString body = m_body;
    if (m_gate && !m_gate->mayRun(*row, *m_document)) {
        m_result->showMessage(WorldEffectGate::notConfirmed(key));
        m_resultKey.clear();
        updateCaption();
        return;
    }
    m_result->showMessage(tr("Running %1…").arg(key));
    m_resultKey.clear();
    updateCaption();
    InvocationHandle *handle = m_dispatcher.invoke({key, body, false, row});
    m_running = handle;
    setBusy(true);
    watchInvocation(handle, this, [this, key, body, handle](const InvocationOutcome &outcome) {
        // A call given up when another directory opened reports into nothing: its entry
        // belongs to no history shown now, and the busy bar may be another call's.
        if (m_running != handle)
            return;
        m_running = nullptr;
        finished(key, body, outcome);
    });
}

void InvokePanel::cancel()
{
    if (m_running)
        m_running->cancel();
    m_cancel->setEnabled(false); // until the runner notices; the result says "cancelled"
}

void InvokePanel::finished(const QString &key, const QString &body, const InvocationOutcome &outcome)
{
    setBusy(false);
    CallHistoryModel::Entry entry{QDateTime::currentDateTimeUtc(), key, body, outcome.durationMs,
                                  outcome.toResponse()};
    m_history->add(entry);
    // Selecting the new entry shows it, through the same path as reopening one.
    m_historyView->setCurrentIndex(m_history->index(0, 0));
    reopen(0);
}

void InvokePanel::reopen(int historyRow)
{
    const CallHistoryModel::Entry *entry = m_history->entryAt(historyRow);
    if (!entry)
        return;
    m_result->showResponse(entry->key, entry->response, entry->durationMs);
    m_resultKey = entry->key;
    m_resultTime = entry->time;
    updateCaption();
}

void InvokePanel::setBusy(bool busy)
{
    m_busy->setVisible(busy);
    m_cancel->setVisible(busy);
    m_cancel->setEnabled(busy);
    updateActions();
}

void InvokePanel::updateActions()
{
    const bool hasRow = m_document && !m_key.isEmpty() && m_document->contains(m_key);
    m_invoke->setEnabled(hasRow && !m_running);
    if (const bool can = hasRow && !m_running; can != m_canInvoke) {
        m_canInvoke = can;
        emit canInvokeChanged(can);
    }
    // Cut to the room the controls leave it, the body in its tooltip: its first thousand
    // characters, since the label measures what it is given on every keystroke.
    constexpr qsizetype shownBodyChars = 1000;
    // Never half of a surrogate pair at the cut.
    const qsizetype cut = m_body.size() > shownBodyChars && m_body.at(shownBodyChars - 1).isHighSurrogate()
                              ? shownBodyChars - 1
                              : shownBodyChars;
    const QString shownBody = m_body.isEmpty()                  ? tr("(empty body)")
                              : m_body.size() <= shownBodyChars ? m_body
                                                                : m_body.left(cut) + QChar(0x2026);
    m_target->setFullText(hasRow ? tr("%1 ← %2").arg(m_key, shownBody) : tr("Select a row to invoke it."));
    updateMissingArguments();
}
