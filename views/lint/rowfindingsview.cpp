#include "views/lint/rowfindingsview.h"

#include "views/common/themecolors.h"

#include <QLabel>
#include <QResizeEvent>
#include <QStyle>

#include <algorithm>

namespace {

const QColor kError(0xb3, 0x26, 0x1e);
const QColor kWarning(0x9a, 0x67, 0x00);

} // namespace

RowFindingsView::RowFindingsView(QWidget *parent) : QListWidget(parent)
{
    setObjectName(QStringLiteral("rowFindings"));
    setWordWrap(true);
    setResizeMode(QListView::Adjust); // re-wrap the messages when the editor is resized
    setIconSize(QSize(16, 16));
    setUniformItemSizes(false);
    setSizeAdjustPolicy(QAbstractScrollArea::AdjustIgnored);
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Maximum);
    connect(this, &QListWidget::itemActivated, this,
            [this](QListWidgetItem *item) { emit fieldActivated(item->data(Qt::UserRole).toString()); });
    connect(this, &QListWidget::itemClicked, this,
            [this](QListWidgetItem *item) { emit fieldActivated(item->data(Qt::UserRole).toString()); });
    hide();
}

// The height a finding takes once its message wraps at the list's width. The item view's
// own size hint measures unwrapped text until it has laid the items out.
int RowFindingsView::findingHeight(int row) const
{
    const int textWidth = std::max(viewport()->width() - iconSize().width() - 12, 60);
    const QRect text =
        fontMetrics().boundingRect(QRect(0, 0, textWidth, 1 << 20), Qt::TextWordWrap, item(row)->text());
    return std::max(text.height(), iconSize().height()) + 6;
}

QSize RowFindingsView::sizeHint() const
{
    // Up to three findings show without scrolling, so the form above keeps its room; more
    // scroll inside the list, and the editor can fold it away.
    int height = 0;
    for (int row = 0; row < std::min(count(), 3); ++row)
        height += findingHeight(row);
    return {QListWidget::sizeHint().width(), std::max(height, fontMetrics().height() + 6) + 2 * frameWidth()};
}

QSize RowFindingsView::minimumSizeHint() const
{
    // At least the first finding whole, however it wraps: a cut message helps no one.
    const int first = count() > 0 ? findingHeight(0) : fontMetrics().height() + 6;
    return {QListWidget::minimumSizeHint().width(), first + 2 * frameWidth()};
}

void RowFindingsView::resizeEvent(QResizeEvent *event)
{
    QListWidget::resizeEvent(event);
    // A new width wraps the messages differently, and so changes the height they need.
    if (event->size().width() != event->oldSize().width())
        updateGeometry();
}

void RowFindingsView::addField(const QString &field, QLabel *label)
{
    if (label)
        m_marks.insert(field, {label, label->palette(), label->toolTip(), QString()});
}

QString RowFindingsView::markOf(const QString &field) const
{
    return m_marks.value(field).severity;
}

void RowFindingsView::showFindings(const QList<LintFinding> &findings)
{
    clear();
    QHash<QString, QStringList> messages;
    QHash<QString, QString> severity;
    for (const LintFinding &finding : findings) {
        auto *item = new QListWidgetItem(
            style()->standardIcon(finding.isError() ? QStyle::SP_MessageBoxCritical
                                                    : QStyle::SP_MessageBoxWarning),
            QStringLiteral("%1 %2 — %3").arg(finding.code, finding.field, finding.message), this);
        item->setData(Qt::UserRole, finding.field);
        item->setToolTip(finding.name);
        messages[finding.field].append(finding.code + u' ' + finding.message);
        if (finding.isError() || !severity.contains(finding.field))
            severity.insert(finding.field, finding.severity);
    }
    for (auto it = m_marks.begin(); it != m_marks.end(); ++it) {
        Mark &mark = it.value();
        if (!mark.label)
            continue;
        mark.severity = severity.value(it.key());
        QPalette palette = mark.palette;
        if (!mark.severity.isEmpty())
            palette.setColor(QPalette::WindowText,
                             ThemeColors::text(mark.severity == QLatin1String("error") ? kError : kWarning));
        mark.label->setPalette(palette);
        const QStringList lines = messages.value(it.key());
        mark.label->setToolTip(lines.isEmpty() ? mark.toolTip : lines.join(u'\n'));
    }
    setVisible(!findings.isEmpty());
    updateGeometry();
}
