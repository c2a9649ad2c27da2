#pragma once

#include <QJsonObject>
#include <QWidget>

class ElidedLabel;
class QLabel;
class QPlainTextEdit;

// One finished call as the engine answered it (SPEC §11 response object): status, HTTP
// status when the output carries one, duration, trace and invocation id, and the output,
// pretty-printed when it is JSON. Fresh results and reopened history entries look alike
// because both are shown from the same response object.
class InvocationResultView final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(InvocationResultView)

public:
    explicit InvocationResultView(QWidget *parent = nullptr);

    void showResponse(const QString &key, const QJsonObject &response, qint64 durationMs);
    void showMessage(const QString &message);
    QString statusText() const;
    QString outputText() const;

    // "HTTP 200:{json}" → "HTTP 200:" + indented JSON; any other JSON output indented;
    // everything else as it is.
    static QString prettyOutput(const QString &output);
    // The status of "HTTP nnn:…" or "ERR: HTTP nnn:…"; 0 when there is none.
    static int httpStatus(const QString &output);

private:
    QLabel *m_status;
    ElidedLabel *m_details;
    QPlainTextEdit *m_output;
};
