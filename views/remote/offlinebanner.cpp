#include "views/remote/offlinebanner.h"

#include <QHBoxLayout>
#include <QIcon>
#include <QLabel>
#include <QPushButton>
#include <QStyle>

OfflineBanner::OfflineBanner(QWidget *parent)
    : QFrame(parent), m_icon(new QLabel(this)), m_text(new QLabel(this)),
      m_retry(new QPushButton(tr("Retry"), this)), m_changeKey(new QPushButton(tr("Change Key…"), this))
{
    setObjectName(QStringLiteral("offlineBanner"));
    setFrameShape(QFrame::StyledPanel);
    setAutoFillBackground(true);
    // Amber, like a warning in the platform's own bars; readable in light and dark themes.
    setStyleSheet(QStringLiteral("#offlineBanner { background: #fff4ce; border: 1px solid #e0b400; }"
                                 "#offlineBanner QLabel { color: #3b2f00; }"));
    const int iconSize = style()->pixelMetric(QStyle::PM_SmallIconSize);
    m_icon->setPixmap(style()->standardIcon(QStyle::SP_MessageBoxWarning).pixmap(iconSize, iconSize));
    m_text->setObjectName(QStringLiteral("offlineBannerText"));
    m_text->setWordWrap(true);
    m_text->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_retry->setObjectName(QStringLiteral("offlineBannerRetry"));
    m_changeKey->setObjectName(QStringLiteral("offlineBannerChangeKey"));
    connect(m_retry, &QPushButton::clicked, this, &OfflineBanner::retryRequested);
    connect(m_changeKey, &QPushButton::clicked, this, &OfflineBanner::changeKeyRequested);

    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(8, 4, 8, 4);
    layout->addWidget(m_icon, 0, Qt::AlignTop);
    layout->addWidget(m_text, 1);
    layout->addWidget(m_changeKey);
    layout->addWidget(m_retry);
    hide();
}

void OfflineBanner::showProblem(Problem problem, const QString &text)
{
    m_problem = problem;
    m_text->setText(text);
    m_changeKey->setVisible(problem == Problem::KeyRefused);
    setVisible(problem != Problem::None);
}

QString OfflineBanner::text() const
{
    return m_text->text();
}
