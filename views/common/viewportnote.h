#pragma once

#include <QLabel>

class QAbstractScrollArea;

// A line of text at the top of an empty list's viewport, such as what would fill it, so
// a list with nothing in it says why rather than showing a blank box. It follows the
// viewport's size and lets the clicks through to the view underneath.
class ViewportNote final : public QLabel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ViewportNote)

public:
    explicit ViewportNote(QAbstractScrollArea *area);

    // Shown while `text` is not empty.
    void setNote(const QString &text);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void fitViewport();
};
