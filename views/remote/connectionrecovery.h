#pragma once

#include <QObject>
#include <QPointer>

#include <functional>

class ConnectionMonitor;
class DirectoryDocument;
class OfflineBanner;
struct StoreError;

// What the window does when its server stops answering or refuses the key: the
// OfflineBanner says so (from the ConnectionMonitor, and at once when a save fails that
// way), and a save that failed is retried, by the banner's Retry or by itself as soon as
// the server answers again. The document keeps every draft meanwhile.
class ConnectionRecovery final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ConnectionRecovery)

public:
    ConnectionRecovery(ConnectionMonitor &monitor, OfflineBanner &banner, std::function<bool()> save,
                       QObject *parent = nullptr);

    void setDocument(DirectoryDocument *document);
    // A save failed for want of the server and waits to be retried.
    bool isSavePending() const { return m_savePending; }
    // Retry's work: the pending save, or else a ping to see whether the server is back.
    void retry();

private:
    void onSaveFailed(const StoreError &error);
    void follow();
    void onBackOnline();
    QString unreachableText(const QString &why) const;
    QString keyRefusedText() const;

    ConnectionMonitor &m_monitor;
    OfflineBanner &m_banner;
    std::function<bool()> m_save;
    QPointer<DirectoryDocument> m_document;
    bool m_savePending = false;
};
