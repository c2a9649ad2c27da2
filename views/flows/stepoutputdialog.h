#pragma once

#include <QDialog>

class QPlainTextEdit;

// One debugger step's output in full, JSON indented as the invoke panel shows it, with
// Copy for the exact text the step returned.
class StepOutputDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(StepOutputDialog)

public:
    StepOutputDialog(const QString &title, const QString &output, QWidget *parent = nullptr);

    QString shownText() const;

private:
    QString m_output;
    QPlainTextEdit *m_text;
};
