#pragma once

#include <QLabel>

// A word-wrapped label that asks its layout for the lines its width needs, as a fixed
// height, rather than offering a height for each width. A scroll area around a panel that
// holds a height-for-width item lays the whole panel out at its preferred height, so a
// laptop's dock would scroll as a whole while this label is shown.
class WrappedLabel final : public QLabel
{
    Q_OBJECT

public:
    explicit WrappedLabel(QWidget *parent = nullptr);

    bool hasHeightForWidth() const override { return false; }
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    int linesHeight() const;

    int m_laidOutWidth = -1;
};
