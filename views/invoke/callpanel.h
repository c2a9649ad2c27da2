#pragma once

#include <QWidget>

class DirectoryDocument;
class Dispatcher;
class InvokePanel;
class ShapePreviewPanel;
class WorldEffectGate;

// The dock beside the row editor: the shape preview (with the argument form) and the
// invoke panel side by side, sharing one body. It exists so MainWindow wires one widget.
class CallPanel final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(CallPanel)

public:
    explicit CallPanel(Dispatcher &dispatcher, QWidget *parent = nullptr);

    // `directory` names the open directory (its path or URL), for the invoke history.
    void setDocument(DirectoryDocument *document, const QString &directory);
    void showRow(const QString &key);
    void setWorldEffectGate(WorldEffectGate *gate);
    ShapePreviewPanel *shapePanel() const { return m_shape; }
    InvokePanel *invokePanel() const { return m_invoke; }

private:
    ShapePreviewPanel *m_shape;
    InvokePanel *m_invoke;
};
