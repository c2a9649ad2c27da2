#pragma once

#include <QLabel>

class ConnectionMonitor;

// The status bar's word on the open server: "Server: name — URL · 3 ms", or that it is
// offline or refuses the key. Empty (and hidden) while a local file is open.
class ConnectionStatusLabel final : public QLabel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ConnectionStatusLabel)

public:
    explicit ConnectionStatusLabel(ConnectionMonitor &monitor, QWidget *parent = nullptr);

private:
    void follow();

    ConnectionMonitor &m_monitor;
};
