#include "views/flows/flowpane.h"

#include "views/flows/flowdebuggerpanel.h"
#include "views/flows/flowvisualizerview.h"

#include <QTabWidget>
#include <QVBoxLayout>

FlowPane::FlowPane(Dispatcher &dispatcher, QWidget *parent)
    : QWidget(parent), m_tabs(new QTabWidget), m_visualizer(new FlowVisualizerView),
      m_debugger(new FlowDebuggerPanel(dispatcher))
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_tabs->addTab(m_visualizer, tr("Graph"));
    m_tabs->addTab(m_debugger, tr("Debugger"));
    m_tabs->setDocumentMode(true);
    layout->addWidget(m_tabs);
    connect(m_visualizer, &FlowVisualizerView::keyActivated, this, &FlowPane::keyActivated);
    connect(m_debugger, &FlowDebuggerPanel::receiptRequested, this, &FlowPane::receiptRequested);
}

void FlowPane::setDocument(DirectoryDocument *document)
{
    m_visualizer->setDocument(document);
    m_debugger->setDocument(document);
}

void FlowPane::showRow(const QString &key)
{
    m_visualizer->showRow(key);
    m_debugger->showRow(key);
}

void FlowPane::showDebugger()
{
    m_tabs->setCurrentWidget(m_debugger);
}
