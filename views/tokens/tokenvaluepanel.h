#pragma once

#include <QWidget>

class QLineEdit;

// Shows a new token's value the one time it exists outside its holder, with a Copy
// button and a plain warning. clear() forgets it; the dialog calls it whenever the panel
// goes away, so the value cannot be seen twice.
class TokenValuePanel final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(TokenValuePanel)

public:
    explicit TokenValuePanel(QWidget *parent = nullptr);

    void showValue(const QString &tokenId, const QString &value);
    void clear();

    QLineEdit *valueField() const { return m_value; }

private:
    QLineEdit *m_value;
};
