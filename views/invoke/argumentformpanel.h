#pragma once

#include "dispatch/row/argumentspec.h"

#include <QList>
#include <QWidget>

class QFormLayout;
class QLabel;
class QLineEdit;

// One input per declared argument plus the raw body. The raw body is the source of
// truth (the call contract has one body string): typing in an argument field rewrites
// the body as joinBody(fields), typing in the body re-splits it into the fields.
class ArgumentFormPanel final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ArgumentFormPanel)

public:
    explicit ArgumentFormPanel(QWidget *parent = nullptr);

    // Rebuilds the fields only when the declared arguments changed; the body stays, so
    // what was typed stays with its index.
    void setSpec(const ArgumentSpec &spec);
    const ArgumentSpec &spec() const { return m_spec; }
    QString body() const { return m_body; }
    void setBody(const QString &body);
    QLineEdit *argumentEdit(int index) const; // 1-based, nullptr when not declared
    QLineEdit *rawBodyEdit() const { return m_raw; }

signals:
    void bodyChanged(const QString &body);

private:
    void rebuildFields();
    void showBodyInFields();
    void fieldEdited();
    void rawEdited(const QString &text);
    void showPipeWarning(const QStringList &values);

    ArgumentSpec m_spec;
    QString m_body;
    bool m_updating = false;
    QFormLayout *m_form;
    QList<QLineEdit *> m_fields;
    QLineEdit *m_raw;
    QLabel *m_noArgs;
    QLabel *m_pipeWarning;
};
