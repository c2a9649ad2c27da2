#include "app/capdeskctl/ctlhelp.h"

#include "app/capdeskctl/ctlcommandtable.h"

using namespace Qt::StringLiterals;

namespace {

constexpr qsizetype kSummaryColumn = 31;
constexpr qsizetype kWidth = 92;

// `text` in lines of at most kWidth, lines after the first starting with `indent`. A
// synopsis breaks only before a '[' or '|', so an option keeps its value; prose anywhere.
enum class Breaks { Synopsis, Prose };
QString wrapped(const QString &text, const QString &indent, Breaks breaks = Breaks::Synopsis)
{
    QStringList pieces;
    QString piece;
    for (const QString &word : text.split(u' ')) {
        if (!piece.isEmpty() && (breaks == Breaks::Prose || word.startsWith(u'[') || word == "|"_L1)) {
            pieces.append(piece);
            piece.clear();
        }
        piece += (piece.isEmpty() ? QString() : u" "_s) + word;
    }
    pieces.append(piece);
    QString out;
    QString line;
    for (const QString &next : std::as_const(pieces)) {
        if (!line.isEmpty() && line.size() + 1 + next.size() > kWidth) {
            out += line + u'\n';
            line = indent;
        }
        line += (line.isEmpty() || line == indent ? QString() : u" "_s) + next;
    }
    return out + line;
}

QString listEntry(const CtlCommand &command)
{
    const QString synopsis = command.synopsis();
    const QString head =
        u"  "_s + wrapped(synopsis.isEmpty() ? command.name : command.name + u' ' + synopsis, u"      "_s);
    const qsizetype lastLine = head.size() - head.lastIndexOf(u'\n') - 1;
    if (!head.contains(u'\n') && lastLine < kSummaryColumn - 1)
        return head.leftJustified(kSummaryColumn) + command.summary + u'\n';
    return head + u'\n' + QString(kSummaryColumn, u' ') + command.summary + u'\n';
}

QString optionEntry(const QCommandLineOption &option)
{
    QStringList names;
    for (const QString &name : option.names())
        names.append((name.size() == 1 ? u"-"_s : u"--"_s) + name);
    QString head = u"  "_s + names.join(u", "_s);
    if (!option.valueName().isEmpty())
        head += u' ' + option.valueName();
    if (head.size() >= kSummaryColumn - 1)
        return head + u'\n' + QString(kSummaryColumn, u' ') + option.description() + u'\n';
    return head.leftJustified(kSummaryColumn) + option.description() + u'\n';
}

QString serverSentence(const CtlCommand &command)
{
    if (command.server == CtlCommand::Server::Works)
        return u"With --server URL it works on the server's directory."_s;
    return u"It needs a local directory file: --server is refused."_s;
}

} // namespace

QString CtlHelp::usage()
{
    QString text = u"usage: capdeskctl COMMAND [--db FILE|postgresql://… | --server URL] ARGS…\n"_s;
    QStringList overServer;
    for (const CtlCommand &command : CtlCommandTable::commands()) {
        text += listEntry(command);
        // help and completion ask no directory, so --server means nothing to them.
        if (command.server == CtlCommand::Server::Works && command.name != "help"_L1
            && command.name != "completion"_L1)
            overServer.append(command.name);
    }
    text += u"Only init and import make a directory (a file, or the tables of an empty PostgreSQL\n"
            "  database); the other commands need one.\n"_s;
    const QString last = overServer.takeLast();
    text += wrapped(u"--server URL: "_s + overServer.join(u", "_s) + u" and "_s + last
                        + u" against a server (owner key from CAPDESK_TERMINAL_KEY); import over a server "
                          "writes row by row and stops at the first refusal."_s,
                    u"  "_s, Breaks::Prose)
            + u'\n';
    text += u"--ca-file FILE (or CAPDESK_CA_FILE): PEM CA certificates trusted beside the system roots\n"
            "  for an https --server (a private CA, or a self-signed server's own certificate).\n"
            "Exit codes: 0 ok, 1 findings, an ERR: result or an I/O error, 2 usage, 3 not found,\n"
            "  4 refused (gate, owner key, conflict), 5 the server did not answer (or its certificate\n"
            "  was refused).\n"_s;
    return text;
}

QString CtlHelp::usageOf(const CtlCommand &command)
{
    return wrapped(command.usageLine(), u"      "_s) + u'\n';
}

QString CtlHelp::command(const QList<const CtlCommand *> &commands)
{
    QStringList sections;
    for (const CtlCommand *command : commands) {
        QString text = usageOf(*command) + u'\n' + command->summary + u'\n';
        for (const QString &line : command->details)
            text += line + u'\n';
        text += u"\nOptions:\n"_s;
        for (const QCommandLineOption &option : command->options)
            text += optionEntry(option);
        for (const QCommandLineOption &option : CtlCommandTable::commonOptions()) {
            // Named once, in the sentence below, for a command that refuses them.
            const QString name = option.names().constLast();
            if (command->server != CtlCommand::Server::Works && (name == "server"_L1 || name == "ca-file"_L1))
                continue;
            text += optionEntry(option);
        }
        text += u'\n' + serverSentence(*command) + u'\n';
        sections.append(text);
    }
    return sections.join(u'\n');
}

void CtlHelp::print(const QString &text, std::FILE *to)
{
    std::fputs(text.toUtf8().constData(), to);
    std::fflush(to);
}
