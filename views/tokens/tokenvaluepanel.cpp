#include "views/tokens/tokenvaluepanel.h"

#include <QClipboard>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

TokenValuePanel::TokenValuePanel(QWidget *parent) : QWidget(parent), m_value(new QLineEdit)
{
    setObjectName(QStringLiteral("tokenValuePanel"));
    auto *warning =
        new QLabel(tr("Copy this value now and give it to whoever will use the token. It cannot be shown "
                      "again: Capdesk keeps only a hash of it. If it is lost, revoke the token and create "
                      "a new one."));
    warning->setObjectName(QStringLiteral("tokenValueWarning"));
    warning->setWordWrap(true);
    warning->setTextFormat(Qt::PlainText);
    m_value->setObjectName(QStringLiteral("tokenValue"));
    m_value->setReadOnly(true);
    auto *copy = new QPushButton(tr("Copy"));
    copy->setObjectName(QStringLiteral("copyTokenValueButton"));
    auto *done = new QPushButton(tr("Done"));
    done->setObjectName(QStringLiteral("tokenValueDoneButton"));
    connect(copy, &QPushButton::clicked, this,
            [this] { QGuiApplication::clipboard()->setText(m_value->text()); });
    connect(done, &QPushButton::clicked, this, &TokenValuePanel::clear);

    auto *row = new QHBoxLayout;
    row->addWidget(m_value, 1);
    row->addWidget(copy);
    row->addWidget(done);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(warning);
    layout->addLayout(row);
    hide();
}

void TokenValuePanel::showValue(const QString &tokenId, const QString &value)
{
    m_value->setText(value);
    m_value->setToolTip(tr("The value of %1").arg(tokenId));
    show();
    m_value->selectAll();
    m_value->setFocus();
}

void TokenValuePanel::clear()
{
    // setText() also empties the field's undo history, which clear() would keep.
    m_value->setText(QString());
    hide();
}
