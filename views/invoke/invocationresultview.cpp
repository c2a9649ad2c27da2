#include "views/invoke/invocationresultview.h"

#include "views/common/elidedlabel.h"
#include "views/common/themecolors.h"

#include <QFontDatabase>
#include <QFontMetrics>
#include <QHBoxLayout>
#include <QJsonDocument>
#include <QLabel>
#include <QPlainTextEdit>
#include <QRegularExpression>
#include <QTextDocument>
#include <QVBoxLayout>

namespace {

const QRegularExpression &httpPrefix()
{
    static const QRegularExpression prefix(QStringLiteral(R"(^(ERR: )?HTTP (\d{3}):)"));
    return prefix;
}

// Indented JSON when `text` is a JSON object or array, else nothing.
QString indentedJson(const QString &text)
{
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(text.toUtf8(), &error);
    if (error.error != QJsonParseError::NoError || document.isNull())
        return {};
    return QString::fromUtf8(document.toJson(QJsonDocument::Indented)).trimmed();
}

} // namespace

InvocationResultView::InvocationResultView(QWidget *parent)
    : QWidget(parent), m_status(new QLabel(this)), m_details(new ElidedLabel(this)),
      m_output(new QPlainTextEdit(this))
{
    m_status->setObjectName(QStringLiteral("resultStatus"));
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_details->setObjectName(QStringLiteral("resultDetails"));
    m_details->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_output->setObjectName(QStringLiteral("resultOutput"));
    m_output->setReadOnly(true);
    m_output->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_output->setLineWrapMode(QPlainTextEdit::NoWrap);
    // Two lines at the least (a scroll area asks for more), so the Invoke panel fits a
    // laptop's dock; the splitter gives the output the rest of the height.
    m_output->setMinimumHeight(2 * QFontMetrics(m_output->font()).lineSpacing() + 2 * m_output->frameWidth()
                               + 2 * int(m_output->document()->documentMargin()));

    // The trace and invocation ids follow the status on its line: one line fewer for the
    // output on a laptop's dock.
    auto *statusLine = new QHBoxLayout;
    statusLine->addWidget(m_status);
    statusLine->addSpacing(12);
    statusLine->addWidget(m_details, 1);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(statusLine);
    layout->addWidget(m_output, 1);
    showMessage(tr("No call yet: press Invoke to run the row with these arguments."));
}

void InvocationResultView::showMessage(const QString &message)
{
    m_status->setText(message);
    m_status->setStyleSheet(QString());
    m_details->setFullText({});
    m_details->hide();
    m_output->clear();
}

void InvocationResultView::showResponse(const QString &key, const QJsonObject &response, qint64 durationMs)
{
    const bool ok = response.value(QStringLiteral("ok")).toBool();
    const bool ran = response.value(QStringLiteral("ran")).toBool();
    const QString output = ran ? response.value(QStringLiteral("result")).toString()
                               : QStringLiteral("ERR: ") + response.value(QStringLiteral("error")).toString();
    QString status = ok ? tr("ok") : (ran ? tr("ERR") : tr("refused"));
    if (const int http = httpStatus(output))
        status += tr(" · HTTP %1").arg(http);
    m_status->setText(tr("<b>%1</b> · %2 · %3 ms").arg(status, key.toHtmlEscaped()).arg(durationMs));
    m_status->setStyleSheet(ThemeColors::css(ok ? QColor(0x1b, 0x7a, 0x2f) : QColor(0xb0, 0x1c, 0x1c)));

    const QJsonObject proof = response.value(QStringLiteral("proof")).toObject();
    QStringList details;
    if (const QString trace = response.value(QStringLiteral("trace")).toString(); !trace.isEmpty())
        details << tr("trace %1").arg(trace);
    if (const QString id = proof.value(QStringLiteral("invocation_id")).toString(); !id.isEmpty())
        details << tr("invocation %1").arg(id);
    m_details->setFullText(details.join(QStringLiteral(" · ")));
    m_details->setVisible(!details.isEmpty());
    m_output->setPlainText(prettyOutput(output));
}

QString InvocationResultView::statusText() const
{
    return m_status->text();
}

QString InvocationResultView::outputText() const
{
    return m_output->toPlainText();
}

int InvocationResultView::httpStatus(const QString &output)
{
    const QRegularExpressionMatch match = httpPrefix().match(output);
    return match.hasMatch() ? match.captured(2).toInt() : 0;
}

QString InvocationResultView::prettyOutput(const QString &output)
{
    const QRegularExpressionMatch match = httpPrefix().match(output);
    if (match.hasMatch()) {
        // Only the response body after the first ':' is JSON; the prefix stays on its line.
        const QString json = indentedJson(output.mid(match.capturedEnd()));
        return json.isEmpty() ? output : match.captured(0) + u'\n' + json;
    }
    const QString json = indentedJson(output);
    return json.isEmpty() ? output : json;
}
