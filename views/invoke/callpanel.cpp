#include "views/invoke/callpanel.h"

#include "views/invoke/invokepanel.h"
#include "views/invoke/shapepreviewpanel.h"

#include <QHBoxLayout>
#include <QSplitter>

CallPanel::CallPanel(Dispatcher &dispatcher, QWidget *parent)
    : QWidget(parent), m_shape(new ShapePreviewPanel(dispatcher)), m_invoke(new InvokePanel(dispatcher))
{
    auto *split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(m_shape);
    split->addWidget(m_invoke);
    split->setChildrenCollapsible(false);
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(split);
    connect(m_shape, &ShapePreviewPanel::bodyChanged, m_invoke, &InvokePanel::setBody);
}

void CallPanel::setDocument(DirectoryDocument *document, const QString &directory)
{
    m_shape->setDocument(document);
    m_invoke->setDocument(document, directory);
}

void CallPanel::setWorldEffectGate(WorldEffectGate *gate)
{
    m_invoke->setWorldEffectGate(gate);
}

void CallPanel::showRow(const QString &key)
{
    m_shape->showRow(key);
    m_invoke->showRow(key);
    // Showing another row clears the arguments; the invoke panel follows.
    m_invoke->setBody(m_shape->currentBody());
}
