#pragma once

#include <QJsonObject>
#include <QWidget>

class QFormLayout;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QTableWidget;
class QVBoxLayout;

// A shape response (SPEC §5, §11) as the runner would send it: for http the method, final
// URL, headers and body; for agent the same plus the chat messages; for fn the builtin and
// its args. Everything shown is already redacted by the engine; a "[redacted]" header is
// drawn as a badge so it cannot be mistaken for a value.
class ShapeRequestView final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ShapeRequestView)

public:
    explicit ShapeRequestView(QWidget *parent = nullptr);

    void showResponse(const QJsonObject &response);
    void showMessage(const QString &message);
    QString urlText() const;

    static QString prettyBody(const QString &text);

private:
    void showHttp(const QJsonObject &request);
    void showFn(const QJsonObject &request);
    void showAgentMessages(const QJsonObject &body);
    void showHeaders(const QJsonObject &headers);
    void showNotes(const QStringList &notes);
    void setRows(bool method, bool url, bool headers, bool body);

    QFormLayout *m_form;
    QLabel *m_runner;
    QLabel *m_method;
    QLineEdit *m_url;
    QTableWidget *m_headers;
    QPlainTextEdit *m_body;
    QLabel *m_bodyLabel;
    QWidget *m_notes;
    QVBoxLayout *m_notesLayout;
};
