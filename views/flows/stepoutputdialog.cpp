#include "views/flows/stepoutputdialog.h"

#include "views/invoke/invocationresultview.h"

#include <QClipboard>
#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QGuiApplication>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>

StepOutputDialog::StepOutputDialog(const QString &title, const QString &output, QWidget *parent)
    : QDialog(parent), m_output(output), m_text(new QPlainTextEdit(this))
{
    setObjectName(QStringLiteral("stepOutputDialog"));
    setWindowTitle(title);
    m_text->setObjectName(QStringLiteral("stepOutput"));
    m_text->setReadOnly(true);
    m_text->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_text->setPlainText(InvocationResultView::prettyOutput(output));
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    QPushButton *copy = buttons->addButton(tr("Copy"), QDialogButtonBox::ActionRole);
    copy->setObjectName(QStringLiteral("copyOutput"));
    connect(copy, &QPushButton::clicked, this, [this] { QGuiApplication::clipboard()->setText(m_output); });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_text, 1);
    layout->addWidget(buttons);
    resize(640, 420);
}

QString StepOutputDialog::shownText() const
{
    return m_text->toPlainText();
}
