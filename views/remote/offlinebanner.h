#pragma once

#include <QFrame>

class QLabel;
class QPushButton;

// A bar across the top of the window saying, in plain words, that the server cannot be
// reached or refuses the key, with Retry (and Change Key… for a refused key). Not a
// dialog: the window stays usable and every unsaved edit stays where it is.
class OfflineBanner final : public QFrame
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(OfflineBanner)

public:
    enum class Problem { None, Unreachable, KeyRefused };

    explicit OfflineBanner(QWidget *parent = nullptr);

    void showProblem(Problem problem, const QString &text);
    void clear() { showProblem(Problem::None, QString()); }

    Problem problem() const { return m_problem; }
    QString text() const;
    QPushButton *retryButton() const { return m_retry; }
    QPushButton *changeKeyButton() const { return m_changeKey; }

signals:
    void retryRequested();
    void changeKeyRequested();

private:
    Problem m_problem = Problem::None;
    QLabel *m_icon;
    QLabel *m_text;
    QPushButton *m_retry;
    QPushButton *m_changeKey;
};
