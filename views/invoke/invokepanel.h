#pragma once

#include <QPointer>
#include <QWidget>

class DirectoryDocument;
class Dispatcher;
class InvocationHandle;
class CallHistoryModel;
class InvocationResultView;
class QLabel;
class QProgressBar;
class QPushButton;
class QTableView;
class WorldEffectGate;
struct InvocationOutcome;

// Runs the shown row for real with the current body (the unsaved draft, so edits can be
// tried before saving), without blocking: a busy bar and Cancel while it runs, then the
// result. Every call lands in the session history, where selecting an entry reopens it.
class InvokePanel final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(InvokePanel)

public:
    explicit InvokePanel(Dispatcher &dispatcher, QWidget *parent = nullptr);
    ~InvokePanel() override;

    void setDocument(DirectoryDocument *document);
    // Calls that change the world ask the gate first; without one they run unasked.
    void setWorldEffectGate(WorldEffectGate *gate) { m_gate = gate; }
    void showRow(const QString &key);
    void setBody(const QString &body);
    QString body() const { return m_body; }
    bool isBusy() const { return m_running != nullptr; }

    CallHistoryModel *history() const { return m_history; }
    InvocationResultView *resultView() const { return m_result; }

public slots:
    void invoke();
    void cancel();
    void reopen(int historyRow);

private:
    void finished(const QString &key, const QString &body, const InvocationOutcome &outcome);
    void setBusy(bool busy);
    void updateActions();

    Dispatcher &m_dispatcher;
    QPointer<DirectoryDocument> m_document;
    QString m_key;
    QString m_body;
    InvocationHandle *m_running = nullptr;
    WorldEffectGate *m_gate = nullptr;
    CallHistoryModel *m_history;
    QLabel *m_target;
    QPushButton *m_invoke;
    QPushButton *m_cancel;
    QProgressBar *m_busy;
    InvocationResultView *m_result;
    QTableView *m_historyView;
};
