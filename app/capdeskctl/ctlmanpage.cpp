#include "app/capdeskctl/ctlmanpage.h"

#include "app/capdeskctl/ctlcommandtable.h"
#include "dispatch/core/productversion.h"

using namespace Qt::StringLiterals;

namespace {

// Text as roff reads it literally: backslashes and hyphens escaped, a line never starting
// with a control character, and anything past ASCII as a named glyph, so groff prints
// the same characters in any locale.
QString escaped(const QString &text)
{
    QString out;
    out.reserve(text.size() + 8);
    for (const QChar c : text) {
        if (c == u'\\')
            out += u"\\e"_s;
        else if (c == u'-')
            out += u"\\-"_s;
        else if (c.unicode() > 0x7e)
            out += u"\\[u"_s + QString::number(c.unicode(), 16).toUpper().rightJustified(4, u'0') + u']';
        else
            out += c;
    }
    if (out.startsWith(u'.') || out.startsWith(u'\''))
        out.prepend(u"\\&"_s);
    return out;
}

QString optionItem(const QCommandLineOption &option)
{
    QStringList names;
    for (const QString &name : option.names())
        names.append(u"\\fB"_s + escaped((name.size() == 1 ? u"-"_s : u"--"_s) + name) + u"\\fR"_s);
    QString head = names.join(u", "_s);
    if (!option.valueName().isEmpty())
        head += u" \\fI"_s + escaped(option.valueName()) + u"\\fR"_s;
    return u".TP\n"_s + head + u'\n' + escaped(option.description()) + u'\n';
}

QString commandSection(const CtlCommand &command)
{
    QString text = u".SS \""_s + escaped(command.name) + u"\"\n"_s;
    text += u".B capdeskctl "_s + escaped(command.name) + u'\n';
    if (const QString synopsis = command.synopsis(); !synopsis.isEmpty())
        text += escaped(synopsis) + u'\n';
    // The table's summaries are fragments ("print one row"); here they stand as sentences.
    const QString summary = command.summary.left(1).toUpper() + command.summary.mid(1);
    text += u".PP\n"_s + escaped(summary) + u".\n"_s;
    if (!command.details.isEmpty())
        text += escaped(command.details.join(u' ')) + u'\n';
    if (command.server == CtlCommand::Server::LocalOnly)
        text += u"It needs a local directory: \\fB\\-\\-server\\fR is refused.\n"_s;
    if (!command.options.isEmpty()) {
        text += u".RS\n"_s;
        for (const QCommandLineOption &option : command.options)
            text += optionItem(option);
        text += u".RE\n"_s;
    }
    return text;
}

} // namespace

QString CtlManPage::render()
{
    QString page = u".TH CAPDESKCTL 1 \"\" \"Capdesk "_s + escaped(ProductVersion::number())
                   + u"\" \"User Commands\"\n"_s;
    page += u".SH NAME\ncapdeskctl \\- script, serve and audit a Capdesk capability directory\n"_s;
    page += u".SH SYNOPSIS\n.B capdeskctl\n.I COMMAND\n"
            "[\\fB\\-\\-db\\fR \\fIFILE\\fR|\\fIURL\\fR | \\fB\\-\\-server\\fR \\fIURL\\fR] "
            "[\\fIARGS\\fR...]\n.br\n.B capdeskctl help\n[\\fICOMMAND\\fR]\n"_s;
    page += u".SH DESCRIPTION\n"
            "A capability directory is one SQL table in which one row is the whole contract of one "
            "callable capability: a builtin function, an HTTP call, a model prompt or a flow of other "
            "rows.\n"
            "\\fBcapdeskctl\\fR edits its rows, invokes them with signed receipts, checks their hygiene, "
            "serves them over REST and MCP, and audits the event log and receipt chains. It works on a "
            "local SQLite file, a PostgreSQL database, or a running server's directory.\n"
            ".PP\n"
            "Only \\fBinit\\fR and \\fBimport\\fR make a directory; the other commands need one. "
            "Without \\fB\\-\\-db\\fR or \\fB\\-\\-server\\fR, a command works on the file the "
            "\\fBcapdesk\\fR(1) window opens by default.\n"_s;
    page += u".SH COMMANDS\n"_s;
    for (const CtlCommand &command : CtlCommandTable::commands())
        page += commandSection(command);
    page += u".SH OPTIONS\nEvery command takes these.\n"_s;
    for (const QCommandLineOption &option : CtlCommandTable::commonOptions())
        page += optionItem(option);
    page += u".SH ENVIRONMENT\n"
            ".TP\n.B CAPDESK_TERMINAL_KEY\n"
            "The owner key: what \\fBserve\\fR requires of the owner, and what commands with "
            "\\fB\\-\\-server\\fR present.\n"
            ".TP\n.B CAPDESK_CA_FILE\n"
            "PEM CA certificates trusted beside the system roots for an https \\fB\\-\\-server\\fR, "
            "as \\fB\\-\\-ca\\-file\\fR.\n"
            ".TP\n.B CREDENTIALS_DIRECTORY\n"
            "Where \\fBserve\\fR finds the owner key as the file \\fIowner\\-key\\fR when systemd's "
            "\\fBLoadCredential=\\fR put it there and no other source is given.\n"
            ".TP\n.B PGPASSFILE\n"
            "Where libpq looks for a PostgreSQL password; a password never goes in the URL.\n"_s;
    page += u".SH EXIT STATUS\n"
            "0 ok, 1 findings, an ERR: result or an I/O error, 2 usage, 3 not found, 4 refused (gate, "
            "owner key, conflict), 5 the server did not answer (or its certificate was refused).\n"_s;
    page += u".SH SEE ALSO\n.BR capdesk (1)\n"_s;
    return page;
}
