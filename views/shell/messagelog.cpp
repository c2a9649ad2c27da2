#include "views/shell/messagelog.h"

#include <QDialogButtonBox>
#include <QPlainTextEdit>
#include <QTime>
#include <QVBoxLayout>

MessageLog::MessageLog(QWidget *parent) : QDialog(parent), m_text(new QPlainTextEdit(this))
{
    setObjectName(QStringLiteral("messageLog"));
    setWindowTitle(tr("Messages"));
    m_text->setObjectName(QStringLiteral("messages"));
    m_text->setReadOnly(true);
    m_text->setMaximumBlockCount(maxMessages);
    m_text->setPlaceholderText(tr("Messages the status bar shows are kept here until Capdesk closes."));
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_text, 1);
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    resize(640, 360);
}

void MessageLog::add(const QString &message)
{
    if (message.isEmpty())
        return;
    m_text->appendPlainText(QTime::currentTime().toString(QStringLiteral("HH:mm:ss  ")) + message);
}

QString MessageLog::text() const
{
    return m_text->toPlainText();
}
