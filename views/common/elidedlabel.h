#pragma once

#include <QLabel>

// One line of text cut with "…" to the width it is given, the whole text in its tooltip.
// It asks for no second line and no more width than a few characters: a word-wrapped label
// has a height for each width, and a scroll area around a panel that holds one lays the
// whole panel out at its preferred height, so a laptop's dock scrolled as a whole.
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

private:
    void elide();

    QString m_full;
};
