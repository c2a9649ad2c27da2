#pragma once

#include "models/callhistorymodel.h"

#include <QDateTime>
#include <QHash>
#include <QPointer>
#include <QWidget>

class DirectoryDocument;
class Dispatcher;
class ElidedLabel;
class InvocationHandle;
class InvocationResultView;
class QLabel;
class QProgressBar;
class QPushButton;
class QTableView;
class WorldEffectGate;
struct InvocationOutcome;

// Runs the shown row for real with the current body (the unsaved draft, so edits can be
// tried before saving), without blocking: a busy bar and Cancel while it runs, then the
// result. Every call lands in the history of its directory, where selecting an entry
// reopens it. The result always names its row and time ("Last result: NOW (12:04)") and
// says so when the selected row is another; declared arguments left empty are named before
// the call, as a warning only (ARGS cannot mark one optional).
class InvokePanel final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(InvokePanel)

public:
    explicit InvokePanel(Dispatcher &dispatcher, QWidget *parent = nullptr);
    ~InvokePanel() override;

    // `directory` names the open directory (its path or URL): each keeps its own history.
    void setDocument(DirectoryDocument *document, const QString &directory);
    // Calls that change the world ask the gate first; without one they run unasked.
    void setWorldEffectGate(WorldEffectGate *gate) { m_gate = gate; }
    void showRow(const QString &key);
    void setBody(const QString &body);
    QString body() const { return m_body; }
    bool isBusy() const { return m_running != nullptr; }
    // Whether invoke() would run something: a row is shown and no call of it is running.
    bool canInvoke() const { return m_canInvoke; }

    CallHistoryModel *history() const { return m_history; }
    InvocationResultView *resultView() const { return m_result; }
    // "Last result: NOW (12:04)", with ", not KEY" when another row is shown; empty
    // before a result.
    QString resultCaption() const;
    // "No value for latitude, longitude: …"; empty when every declared argument has one.
    QString missingArgumentsWarning() const;

signals:
    void canInvokeChanged(bool can);

public slots:
    void invoke();
    void cancel();
    void reopen(int historyRow);

private:
    void finished(const QString &key, const QString &body, const InvocationOutcome &outcome);
    void setBusy(bool busy);
    void updateActions();
    void updateCaption();
    void updateMissingArguments();

    Dispatcher &m_dispatcher;
    QPointer<DirectoryDocument> m_document;
    QString m_key;
    QString m_body;
    QString m_directory;
    QHash<QString, QList<CallHistoryModel::Entry>> m_otherHistories; // by directory
    QString m_resultKey; // the row of the result shown; empty when none
    QDateTime m_resultTime;
    InvocationHandle *m_running = nullptr;
    bool m_canInvoke = false;
    WorldEffectGate *m_gate = nullptr;
    CallHistoryModel *m_history;
    ElidedLabel *m_target;
    ElidedLabel *m_missing;
    QLabel *m_caption;
    QPushButton *m_invoke;
    QPushButton *m_cancel;
    QProgressBar *m_busy;
    InvocationResultView *m_result;
    QTableView *m_historyView;
};
