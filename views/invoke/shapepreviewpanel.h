#pragma once

#include "dispatch/row/row.h"

#include <QJsonObject>
#include <QPointer>
#include <QTimer>
#include <QWidget>

#include <optional>

class ArgumentFormPanel;
class DirectoryDocument;
class Dispatcher;
class QPushButton;
class ShapeRequestView;

// The shape preview: the row's arguments as a form, and the request a call with them
// would send, rebuilt 200 ms after the last keystroke in the form or edit of the row
// (unsaved drafts included: the engine gets the draft, not the stored row). Each render
// is a shape call through the Dispatcher, so the preview is built by the same code as the
// real call and is redacted by the engine before it arrives here.
class ShapePreviewPanel final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ShapePreviewPanel)

public:
    static constexpr int debounceMs = 200;

    explicit ShapePreviewPanel(Dispatcher &dispatcher, QWidget *parent = nullptr);

    void setDocument(DirectoryDocument *document);
    void showRow(const QString &key);
    QString key() const { return m_key; }
    QString currentBody() const;
    ArgumentFormPanel *argumentForm() const { return m_form; }
    ShapeRequestView *requestView() const { return m_view; }
    // The last shape response shown, as the engine returned it (redacted).
    QJsonObject lastResponse() const { return m_response; }

public slots:
    void copyAsCurl();

signals:
    void bodyChanged(const QString &body);

private:
    void rowEdited(const QString &key);
    void render();
    // The last response's request as a curl command; empty when it is no http request.
    QString curlCommand() const;
    void updateSpec();

    Dispatcher &m_dispatcher;
    QPointer<DirectoryDocument> m_document;
    QString m_key;
    quint64 m_generation = 0; // answers of older renders are dropped
    QJsonObject m_response;
    // What the shown preview was built from: a rowChanged() that leaves both alike (a
    // save's start and end, a row arriving that was already shown) builds nothing anew.
    std::optional<Row> m_previewedRow;
    QString m_previewedBody;
    QTimer m_debounce;
    ArgumentFormPanel *m_form;
    ShapeRequestView *m_view;
    QPushButton *m_copyCurl;
};
