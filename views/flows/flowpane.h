#pragma once

#include <QWidget>

class DirectoryDocument;
class Dispatcher;
class FlowDebuggerPanel;
class FlowVisualizerView;
class QTabWidget;

// The Flow dock's content: the selected flow row as a graph, and its step debugger,
// both following the row the table or the editor shows.
class FlowPane final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(FlowPane)

public:
    explicit FlowPane(Dispatcher &dispatcher, QWidget *parent = nullptr);

    FlowVisualizerView *visualizer() const { return m_visualizer; }
    FlowDebuggerPanel *debugger() const { return m_debugger; }

    void setDocument(DirectoryDocument *document);

public slots:
    void showRow(const QString &key);
    // Brings the debugger's tab forward.
    void showDebugger();

signals:
    void keyActivated(const QString &key);
    void receiptRequested(const QString &invocationId);

private:
    QTabWidget *m_tabs;
    FlowVisualizerView *m_visualizer;
    FlowDebuggerPanel *m_debugger;
};
