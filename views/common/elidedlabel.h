#pragma once

#include <QLabel>

// One line of text cut with "…" to the width it is given, the whole text in its tooltip,
// its accessible name and its context menu's Copy. It asks for no second line and no more
// width than a few characters: a word-wrapped label has a height for each width, and a
// scroll area around a panel that holds one lays the whole panel out at its preferred
// height, so a laptop's dock scrolled as a whole. The tooltip is the label's own.
class ElidedLabel final : public QLabel
{
    Q_OBJECT

public:
    explicit ElidedLabel(QWidget *parent = nullptr);

    void setFullText(const QString &text);
    QString fullText() const { return m_full; }

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void resizeEvent(QResizeEvent *event) override;
    void changeEvent(QEvent *event) override;
    void contextMenuEvent(QContextMenuEvent *event) override;

private:
    void elide();

    QString m_full;
    QString m_oneLine; // m_full with its line breaks as spaces
};
