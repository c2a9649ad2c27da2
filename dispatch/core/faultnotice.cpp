#include "dispatch/core/faultnotice.h"

#include <QRandomGenerator>

#include <cstdio>

using namespace Qt::StringLiterals;

namespace {

const QString kLead = u"Capdesk could not do this (fault "_s;

// One line in the log whatever the text holds: a line break in it could forge the next
// entry, and a format character (a right-to-left override) could make it read as another.
QString oneLine(QString text)
{
    for (QChar &c : text) {
        if (c.category() == QChar::Other_Control || c.category() == QChar::Other_Format
            || c == QChar::LineSeparator || c == QChar::ParagraphSeparator)
            c = u' ';
    }
    return text;
}

} // namespace

QString FaultNotice::hide(const QString &detail)
{
    const QString id = QString::number(QRandomGenerator::global()->generate(), 16).rightJustified(8, u'0');
    std::fprintf(stderr, "capdesk: fault %s: %s\n", qUtf8Printable(id), qUtf8Printable(oneLine(detail)));
    std::fflush(stderr);
    return kLead + id + u"); its owner finds what went wrong under that id in its log"_s;
}

bool FaultNotice::isNotice(const QString &text)
{
    return text.startsWith(kLead);
}
