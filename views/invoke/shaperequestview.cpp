#include "views/invoke/shaperequestview.h"

#include "dispatch/secrets/redactor.h"

#include <QApplication>
#include <QFontDatabase>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QStyle>
#include <QTableWidget>
#include <QVBoxLayout>

namespace {

QLabel *monospaceLabel(QWidget *parent)
{
    auto *label = new QLabel(parent);
    label->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return label;
}

} // namespace

ShapeRequestView::ShapeRequestView(QWidget *parent)
    : QWidget(parent), m_form(new QFormLayout(this)), m_runner(new QLabel(this)),
      m_method(monospaceLabel(this)), m_url(new QLineEdit(this)), m_headers(new QTableWidget(0, 2, this)),
      m_body(new QPlainTextEdit(this)), m_bodyLabel(new QLabel(tr("Body"), this)), m_notes(new QWidget(this)),
      m_notesLayout(new QVBoxLayout(m_notes))
{
    m_form->setContentsMargins(0, 0, 0, 0);
    m_form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    const QFont fixed = QFontDatabase::systemFont(QFontDatabase::FixedFont);

    m_runner->setObjectName(QStringLiteral("shapeRunner"));
    m_runner->setWordWrap(true);
    m_runner->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_method->setObjectName(QStringLiteral("shapeMethod"));
    m_url->setObjectName(QStringLiteral("shapeUrl"));
    m_url->setReadOnly(true);
    m_url->setFont(fixed);
    m_headers->setObjectName(QStringLiteral("shapeHeaders"));
    m_headers->setHorizontalHeaderLabels({tr("Header"), tr("Value")});
    m_headers->horizontalHeader()->setStretchLastSection(true);
    m_headers->verticalHeader()->hide();
    m_headers->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_headers->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_headers->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_body->setObjectName(QStringLiteral("shapeBody"));
    m_body->setReadOnly(true);
    m_body->setFont(fixed);
    m_body->setLineWrapMode(QPlainTextEdit::NoWrap);
    // The panel scrolls rather than squeezing the body (an agent prompt is long) to a line.
    m_body->setMinimumHeight(180);
    m_notes->setObjectName(QStringLiteral("shapeNotes"));
    m_notesLayout->setContentsMargins(0, 0, 0, 0);
    m_notesLayout->setSpacing(2);

    m_form->addRow(m_runner);
    // Notes first: a missing credential is what the user most needs to see.
    m_form->addRow(m_notes);
    m_form->addRow(tr("Method"), m_method);
    m_form->addRow(tr("URL"), m_url);
    m_form->addRow(tr("Headers"), m_headers);
    m_form->addRow(m_bodyLabel, m_body);
    showMessage(tr("Select a row to preview its request."));
}

QString ShapeRequestView::urlText() const
{
    return m_url->text();
}

void ShapeRequestView::showMessage(const QString &message)
{
    m_runner->setText(message);
    setRows(false, false, false, false);
    showNotes({});
}

void ShapeRequestView::showResponse(const QJsonObject &response)
{
    if (!response.value(QStringLiteral("ok")).toBool() && response.contains(QStringLiteral("error"))) {
        // A refusal (unknown key, no runner for this type yet, …): shown as the engine
        // words it, whatever the runner.
        showMessage(tr("Nothing to preview: %1").arg(response.value(QStringLiteral("error")).toString()));
        return;
    }
    const QString runner = response.value(QStringLiteral("runner")).toString();
    const QJsonObject request = response.value(QStringLiteral("request")).toObject();
    m_runner->setText(tr("%1 request, built and not sent").arg(runner));
    if (request.contains(QStringLiteral("fn")))
        showFn(request);
    else if (request.contains(QStringLiteral("method")))
        showHttp(request);
    else {
        setRows(false, false, false, true);
        m_bodyLabel->setText(tr("Plan"));
        m_body->setPlainText(QString::fromUtf8(QJsonDocument(request).toJson(QJsonDocument::Indented)));
    }
    QStringList notes;
    for (const QJsonValue &note : response.value(QStringLiteral("notes")).toArray())
        notes.append(note.toString());
    showNotes(notes);
}

void ShapeRequestView::showHttp(const QJsonObject &request)
{
    setRows(true, true, true, true);
    m_method->setText(request.value(QStringLiteral("method")).toString());
    m_url->setText(request.value(QStringLiteral("url")).toString());
    m_url->setCursorPosition(0);
    showHeaders(request.value(QStringLiteral("headers")).toObject());
    const QJsonValue body = request.value(QStringLiteral("body"));
    if (body.isObject() && body.toObject().contains(QStringLiteral("messages"))) {
        showAgentMessages(body.toObject());
        return;
    }
    m_bodyLabel->setText(tr("Body"));
    m_body->setPlainText(body.isNull() ? tr("(no body is sent)") : prettyBody(body.toString()));
}

void ShapeRequestView::showAgentMessages(const QJsonObject &body)
{
    m_bodyLabel->setText(tr("Messages"));
    QString text = tr("model: %1\n").arg(body.value(QStringLiteral("model")).toString());
    for (const QJsonValue &message : body.value(QStringLiteral("messages")).toArray()) {
        const QJsonObject object = message.toObject();
        text += QStringLiteral("\n── %1 ──\n%2\n")
                    .arg(object.value(QStringLiteral("role")).toString(),
                         object.value(QStringLiteral("content")).toString());
    }
    m_body->setPlainText(text);
}

void ShapeRequestView::showFn(const QJsonObject &request)
{
    setRows(true, false, false, true);
    m_method->setText(tr("builtin %1").arg(request.value(QStringLiteral("fn")).toString()));
    m_bodyLabel->setText(tr("Args"));
    QStringList lines;
    const QJsonArray args = request.value(QStringLiteral("args")).toArray();
    for (qsizetype i = 0; i < args.size(); ++i) {
        const QJsonValue arg = args[i];
        const QString text =
            arg.isString() ? arg.toString()
                           : QString::fromUtf8(QJsonDocument(QJsonArray{arg}).toJson(QJsonDocument::Compact))
                                 .mid(1)
                                 .chopped(1);
        lines.append(QStringLiteral("%1. %2").arg(i + 1).arg(text));
    }
    m_body->setPlainText(lines.isEmpty() ? tr("(no args)") : lines.join(u'\n'));
}

void ShapeRequestView::showHeaders(const QJsonObject &headers)
{
    m_headers->setRowCount(0);
    for (auto it = headers.constBegin(); it != headers.constEnd(); ++it) {
        const int row = m_headers->rowCount();
        m_headers->insertRow(row);
        m_headers->setItem(row, 0, new QTableWidgetItem(it.key()));
        auto *value = new QTableWidgetItem(it.value().toString());
        if (value->text().contains(Redactor::marker)) {
            value->setIcon(style()->standardIcon(QStyle::SP_MessageBoxWarning));
            value->setBackground(QColor(0xff, 0xe8, 0xb0));
            value->setForeground(QColor(0x7a, 0x4a, 0x00));
            value->setToolTip(tr("credential removed: Capdesk never shows secret values"));
        }
        m_headers->setItem(row, 1, value);
    }
    if (headers.isEmpty()) {
        m_headers->insertRow(0);
        auto *none = new QTableWidgetItem(tr("(no headers)"));
        none->setForeground(palette().color(QPalette::PlaceholderText));
        m_headers->setItem(0, 0, none);
    }
    m_headers->resizeColumnToContents(0);
    // As tall as its rows: a few headers should not take the body's room, nor scroll.
    m_headers->setFixedHeight(m_headers->horizontalHeader()->height() + 2 * m_headers->frameWidth()
                              + m_headers->verticalHeader()->length() + 2);
}

void ShapeRequestView::showNotes(const QStringList &notes)
{
    while (QLayoutItem *item = m_notesLayout->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    const QPixmap warning = style()->standardIcon(QStyle::SP_MessageBoxWarning).pixmap(16, 16);
    for (const QString &note : notes) {
        auto *row = new QWidget(m_notes);
        auto *layout = new QHBoxLayout(row);
        layout->setContentsMargins(0, 0, 0, 0);
        auto *icon = new QLabel(row);
        icon->setPixmap(warning);
        auto *text = new QLabel(note, row);
        text->setObjectName(QStringLiteral("shapeNote"));
        text->setWordWrap(true);
        text->setTextInteractionFlags(Qt::TextSelectableByMouse);
        layout->addWidget(icon, 0, Qt::AlignTop);
        layout->addWidget(text, 1);
        m_notesLayout->addWidget(row);
    }
    m_notes->setVisible(!notes.isEmpty());
}

void ShapeRequestView::setRows(bool method, bool url, bool headers, bool body)
{
    m_form->setRowVisible(m_method, method);
    m_form->setRowVisible(m_url, url);
    m_form->setRowVisible(m_headers, headers);
    m_form->setRowVisible(m_body, body);
}

QString ShapeRequestView::prettyBody(const QString &text)
{
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(text.toUtf8(), &error);
    if (error.error != QJsonParseError::NoError || document.isNull())
        return text;
    return QString::fromUtf8(document.toJson(QJsonDocument::Indented)).trimmed();
}
