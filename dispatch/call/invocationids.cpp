#include "dispatch/call/invocationids.h"

#include <QRandomGenerator>
#include <QRegularExpression>

namespace {

QString base36(int length)
{
    static constexpr char digits[] = "0123456789abcdefghijklmnopqrstuvwxyz";
    QString text(length, Qt::Uninitialized);
    for (int i = 0; i < length; ++i)
        text[i] = QLatin1Char(digits[QRandomGenerator::system()->bounded(36)]);
    return text;
}

} // namespace

namespace InvocationIds {

QString newInvocationId()
{
    return QStringLiteral("inv_") + base36(10);
}

QString newTrace()
{
    return QStringLiteral("t_") + base36(8);
}

bool isInvocationId(const QString &text)
{
    static const QRegularExpression form(QStringLiteral("^inv_[0-9a-z]{10}$"));
    return form.match(text).hasMatch();
}

bool isTrace(const QString &text)
{
    static const QRegularExpression form(QStringLiteral("^t_[0-9a-z]{8}$"));
    return form.match(text).hasMatch();
}

} // namespace InvocationIds
