#pragma once

#include <QFutureWatcher>
#include <QObject>
#include <QStringList>
#include <QTimer>

#include <memory>

class DirectoryStore;

// Searches every row's content off the GUI thread: the store runs the query on a
// connection of its own and the keys come back as one list. A newer request makes an
// older answer stale; stale answers are dropped, never shown.
class ContentSearch final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ContentSearch)

public:
    explicit ContentSearch(std::shared_ptr<DirectoryStore> store, QObject *parent = nullptr);
    ~ContentSearch() override;

    // Debounced: the search starts once typing pauses for `delayMs`.
    void request(const QString &text, int delayMs = 120);
    bool isBusy() const;

signals:
    void finished(const QString &text, const QStringList &keys);
    void busyChanged(bool busy);
    void failed(const QString &message);

private:
    void start();
    void updateBusy();

    std::shared_ptr<DirectoryStore> m_store;
    QTimer m_debounce;
    QString m_pending;
    quint64 m_generation = 0;
    int m_running = 0;
    bool m_busy = false;
};
