#include "app/capdeskctl/ctlcommandtable.h"

#include "app/capdeskctl/ctlcommands.h"
#include "app/capdeskctl/ctldispatchlimits.h"

#include <algorithm>

using namespace Qt::StringLiterals;

namespace {

using Server = CtlCommand::Server;

QCommandLineOption flag(const QString &name, const QString &description)
{
    return QCommandLineOption(name, description);
}

QCommandLineOption valued(const QString &name, const QString &valueName, const QString &description)
{
    return QCommandLineOption(name, description, valueName);
}

QList<QCommandLineOption> serveOptions()
{
    return QList<QCommandLineOption>{
               valued(u"listen"_s, u"HOST:PORT"_s,
                      u"where to listen (default 127.0.0.1:8787); port 0 picks a free one, named on "
                      "stderr as `capdeskctl: listening on URL`"_s),
               flag(u"generate-key"_s, u"make a strong owner key and print it once"_s),
               valued(u"owner-key-file"_s, u"FILE"_s,
                      u"read the owner key from FILE (mode 0600) instead of CAPDESK_TERMINAL_KEY"_s),
               valued(u"dispatch-timeout"_s, u"MS"_s,
                      u"answer 504 and cancel a call still running after this"_s),
               valued(u"idle-timeout"_s, u"MS"_s, u"close a connection idle this long"_s),
               valued(u"request-timeout"_s, u"MS"_s, u"close a connection whose request takes longer"_s),
               valued(u"max-connections"_s, u"N"_s, u"connections open at once"_s),
               valued(u"max-connections-per-address"_s, u"N"_s,
                      u"connections from one address (0: no cap)"_s),
               valued(u"max-header-bytes"_s, u"N"_s, u"the largest request head"_s),
               valued(u"max-body-bytes"_s, u"N"_s, u"the largest request body"_s),
               valued(u"max-unsent-bytes"_s, u"N"_s, u"answer bytes a slow reader may leave unread"_s),
               valued(u"tls-cert"_s, u"FILE"_s, u"serve HTTPS with this PEM certificate (chain)"_s),
               valued(u"tls-key"_s, u"FILE"_s, u"the certificate's unencrypted PEM key"_s),
               valued(u"mcp-tools"_s, u"rows|contract"_s, u"the tools /mcp serves (default rows)"_s),
               valued(u"allow-origin"_s, u"ORIGIN,…"_s,
                      u"browser origins besides this server's own that may use /mcp"_s),
               flag(u"announce-version"_s,
                    u"name Capdesk's version in a Server header and MCP's serverInfo (off: it helps "
                    "attackers)"_s),
           }
           + CtlDispatchLimits::options();
}

// A token on the command line is in reach of ps and the shell's history; a file is not.
QCommandLineOption tokenFileOption()
{
    return valued(u"token-file"_s, u"FILE"_s,
                  u"--token read from FILE (one line, mode 0600), out of sight of ps and shell history"_s);
}

QCommandLineOption mcpProjectionOption()
{
    return valued(u"tools"_s, u"rows|contract"_s,
                  u"one tool per row (rows, the default), or the three tools of the one contract"_s);
}

QList<QCommandLineOption> tokenCreateOptions()
{
    return {
        valued(u"audience"_s, u"A"_s, u"who may present the token"_s),
        valued(u"keys"_s, u"K,…"_s, u"the rows it may call"_s),
        valued(u"categories"_s, u"C,…"_s, u"the categories it may call"_s),
        valued(u"risk-ceiling"_s, u"low|high"_s,
               u"the highest risk it may call (default low: no sensitive row)"_s),
        valued(u"pin"_s, u"KEY"_s, u"pin the token to KEY's contract as it is now"_s),
        valued(u"fixed-body"_s, u"B"_s, u"the only body it may send, byte for byte (may be empty)"_s),
        valued(u"payload-ceiling"_s, u"BYTES"_s, u"the largest body it may send"_s),
        valued(u"expires"_s, u"ISO|90m|12h|30d|2w"_s, u"when it stops working"_s),
        flag(u"owner-gate"_s, u"each call also needs the owner present"_s),
        valued(u"label"_s, u"L"_s, u"a name for the owner's list"_s),
        flag(u"allow-unknown"_s, u"make it even if no row has a key or category it names (yet)"_s),
    };
}

using Handler = int (CtlCommands::*)();

CtlCommand entry(const QString &name, const QString &arguments, const QString &summary, Handler run,
                 const QList<QCommandLineOption> &options = {}, Server server = Server::Works)
{
    CtlCommand command;
    command.name = name;
    command.arguments = arguments;
    command.summary = summary;
    command.options = options;
    command.server = server;
    command.run = run;
    return command;
}

CtlCommand withDetails(CtlCommand command, const QStringList &details)
{
    command.details = details;
    return command;
}

CtlCommand refusingServerWith(CtlCommand command, const QString &refusal)
{
    command.serverRefusal = refusal;
    return command;
}

CtlCommand allowingEmpty(CtlCommand command, const QStringList &options)
{
    command.emptyValues = options;
    return command;
}

QList<CtlCommand> buildCommands()
{
    QList<CtlCommand> table{
        entry(u"init"_s, {}, u"create a directory (with the sample rows)"_s, &CtlCommands::init,
              {flag(u"sample"_s, u"fill it with the sample rows"_s)}, Server::LocalOnly),
        withDetails(
            entry(u"import"_s, u"FILE"_s, u"add rows from a SQL dump or a JSON array; all or nothing"_s,
                  &CtlCommands::importFile,
                  {flag(u"allow-noncompliant"_s, u"import rows that break hygiene rules, listing them"_s),
                   flag(u"restamp"_s, u"replace invalid timestamps with now"_s)}),
            {u"The SQL dump may be of the directory table or of a whole database. Rows breaking"_s,
             u"hygiene rules are refused unless --allow-noncompliant (they are then listed with"_s,
             u"their codes). Over a server it writes row by row and stops at the first refusal."_s}),
        entry(u"export"_s, {}, u"every row as JSON (default) or a SQL dump"_s, &CtlCommands::exportRows,
              {valued(u"format"_s, u"json|sql"_s, u"the format (default json)"_s),
               valued(u"out"_s, u"FILE"_s, u"write to FILE instead of stdout"_s)}),
        entry(u"get"_s, u"KEY"_s, u"print one row"_s, &CtlCommands::get),
        entry(u"put"_s, u"< row.json"_s, u"create or replace the row JSON on stdin"_s, &CtlCommands::put),
        withDetails(entry(u"patch"_s, u"KEY < fields.json"_s, u"apply the fields JSON on stdin"_s,
                          &CtlCommands::patch),
                    {u"Fields outside the patchable ones are ignored and named on stderr."_s}),
        entry(u"delete"_s, u"KEY"_s, u"remove one row"_s, &CtlCommands::remove),
        withDetails(
            entry(u"invoke"_s, u"KEY [BODY]"_s, u"run a row (or build its request, sending nothing)"_s,
                  &CtlCommands::invoke,
                  QList<QCommandLineOption>{
                      flag(u"shape"_s, u"build the request and send nothing"_s),
                      valued(u"token"_s, u"T"_s, u"call as this capability token's holder"_s),
                      tokenFileOption(),
                      valued(u"audience"_s, u"A"_s, u"the audience the token is presented for"_s),
                      flag(u"owner-present"_s, u"the owner is at hand for an owner-gated token"_s)}
                      + CtlDispatchLimits::options()),
            {u"The response object's proof carries the signed receipt. With --token (or --token-file)"_s,
             u"and --audience the call goes through the capability gate as the token's holder."_s}),
        entry(u"flow-plan"_s, u"KEY"_s, u"the parsed flow: steps, bodies, bindings, fan-outs"_s,
              &CtlCommands::flowPlan),
        entry(u"lint"_s, u"[KEY…]"_s, u"hygiene findings (all rows, or these); exit 1 on any error"_s,
              &CtlCommands::lint),
        entry(u"contract"_s, u"KEY"_s, u"the row's contract document (Markdown)"_s, &CtlCommands::contract),
        entry(
            u"mcp-tools"_s, {}, u"the MCP tools/list projection of the callable rows"_s,
            &CtlCommands::mcpTools,
            {mcpProjectionOption(),
             flag(u"cost"_s, u"each projection's size in bytes and estimated tokens, whole and per tool"_s)}),
        withDetails(
            entry(
                u"mcp"_s, {}, u"serve --db (or bridge --server) to an MCP client over stdio"_s,
                &CtlCommands::mcp,
                QList<QCommandLineOption>{
                    mcpProjectionOption(),
                    valued(u"token"_s, u"T"_s, u"serve only this capability token's rows, its calls gated"_s),
                    tokenFileOption(),
                    valued(u"audience"_s, u"A"_s, u"the audience the token is presented for"_s),
                    valued(u"page-size"_s, u"N"_s, u"tools per tools/list page (default 500)"_s)}
                    + CtlDispatchLimits::options()),
            {u"Newline-delimited JSON-RPC on stdin and stdout; log lines go to stderr. Row changes"_s,
             u"from any writer reach the client as notifications/tools/list_changed. Every call is"_s,
             u"receipted as actor mcp:<client name>; _meta names `capdeskctl confirm` for it. With"_s,
             u"--server the server's rows are served and its POST /api/dispatch runs each call with"_s,
             u"the owner key of CAPDESK_TERMINAL_KEY; --token and --token-file are for --db only."_s}),
        withDetails(
            entry(u"serve"_s, {}, u"the REST server of SPEC §10 over --db"_s, &CtlCommands::serve,
                  serveOptions(), Server::LocalOnly),
            {u"The owner key comes from --owner-key-file, CAPDESK_TERMINAL_KEY, the systemd credential"_s,
             u"owner-key ($CREDENTIALS_DIRECTORY, from LoadCredential=), or --generate-key. Plain HTTP"_s,
             u"listens on loopback only; with --tls-cert and --tls-key it speaks HTTPS and may listen on"_s,
             u"any address."_s}),
        withDetails(
            refusingServerWith(
                entry(u"receipts"_s, u"[--key K] [--limit N] | receipts archive --before DATE --out FILE"_s,
                      u"signed receipts, newest first; or move the old ones out into a segment file"_s,
                      &CtlCommands::receipts,
                      {valued(u"key"_s, u"K"_s, u"only this row's receipts"_s),
                       valued(u"limit"_s, u"N"_s, u"at most N receipts"_s),
                       valued(u"before"_s, u"DATE"_s,
                              u"archive: receipts started before this day (UTC) or instant"_s),
                       valued(u"out"_s, u"FILE"_s, u"archive: the new segment file (never overwritten)"_s)},
                      Server::LocalOnly),
                u"receipts lists a local directory's receipts only; against a server, check one with confirm "
                "INV_ID --server URL (or open its /receipt/INV_ID page)"_s),
            {u"archive writes the receipts to FILE, signed and self-verifying, then deletes them from the"_s,
             u"directory and keeps the file's signed seal, so `log --verify` still accounts for them. Check"_s,
             u"the file with verify-receipt FILE, and one receipt in it with confirm INV_ID --archive FILE."_s}),
        entry(u"confirm"_s, u"INV_ID"_s, u"whether a receipt exists and its signature holds"_s,
              &CtlCommands::confirm,
              {valued(u"archive"_s, u"FILE"_s,
                      u"look in this receipt segment, which the directory archived"_s)}),
        entry(u"verify-receipt"_s, u"FILE"_s,
              u"check a saved receipt (or a saved invoke answer, or a receipt segment) offline"_s,
              &CtlCommands::verifyReceipt,
              {valued(u"public-key"_s, u"PEM"_s, u"check against this key file, not the directory's keys"_s),
               valued(u"invocation"_s, u"INV_ID"_s, u"a segment: also check this receipt in it"_s)},
              Server::LocalOnly),
        entry(u"public-key"_s, {}, u"the receipt-signing public key (PEM)"_s, &CtlCommands::publicKey,
              {valued(u"out"_s, u"FILE"_s, u"write the key to FILE instead of stdout"_s)}, Server::LocalOnly),
        withDetails(
            entry(u"signing-key new"_s, u"[--follow ID,…]"_s, u"sign receipts with a new key from now on"_s,
                  &CtlCommands::signingKeyNew,
                  {valued(u"follow"_s, u"ID,…"_s,
                          u"without the directory's key here: the listed keys the new one vouches for"_s)},
                  Server::LocalOnly),
            {u"For a directory whose key is lost (a copy on a new machine) or should sign no more."_s,
             u"With the key held here, the new key follows the keys that one trusts and it signs"_s,
             u"for the new key, so log --verify with either trusts the receipts of both; a key"_s,
             u"file holding it is replaced. Without it, --follow names the listed keys to vouch"_s,
             u"for (check them against your records: whoever can write the file can list a key);"_s,
             u"a holder of an old key then reads the new receipts as another key's."_s}),
        withDetails(entry(u"log"_s, u"[--key K] | log --verify [--anchor FILE] | log --anchor"_s,
                          u"the hash-chained event log, its check, or a signed anchor of its end"_s,
                          &CtlCommands::log,
                          {valued(u"key"_s, u"K"_s, u"only this row's events"_s),
                           flag(u"verify"_s, u"check the log and the receipt chains"_s),
                           flag(u"anchor"_s, u"print an anchor; with --verify, check the anchor FILE"_s)},
                          Server::LocalOnly),
                    {u"--verify checks the log and the receipt chains, exit 1 naming each finding; with"_s,
                     u"--anchor FILE also that the log still holds that anchor. --anchor alone prints a"_s,
                     u"signed anchor of where the log ends now, to keep elsewhere."_s}),
        withDetails(
            entry(u"migrate"_s, u"--from FILE|URL --to FILE|URL"_s,
                  u"move a whole directory to a new database, SQLite or PostgreSQL, and verify the copy"_s,
                  &CtlCommands::migrate,
                  {valued(u"from"_s, u"FILE|URL"_s, u"the directory to copy"_s),
                   valued(u"to"_s, u"FILE|URL"_s, u"a new file, or an empty PostgreSQL database"_s)},
                  Server::LocalOnly),
            {u"Rows, tokens, signing keys, receipts, their chains and the event log are copied as they"_s,
             u"are, in one transaction, holding off the source's writers. The source must pass log"_s,
             u"--verify first; each table is compared by digest before the copy commits, and the copy"_s,
             u"must pass log --verify after. A signing key kept in a file beside the source is copied"_s,
             u"(owner-only) to where the new location looks; one in the keychain serves both already."_s}),
        withDetails(
            entry(u"restore"_s, u"KEY SEQ"_s,
                  u"put back the version of KEY that event SEQ saved, logged as a restore"_s,
                  &CtlCommands::restore, {}, Server::LocalOnly),
            {u"SEQ is the seq of one of the row's events in log --key KEY. The write passes the hygiene"_s,
             u"gate as an edit does (it may not make a compliant row non-compliant)."_s}),
        withDetails(
            allowingEmpty(entry(u"token create"_s, u"--audience A"_s,
                                u"make a capability token (its value is printed once)"_s,
                                &CtlCommands::tokenCreate, tokenCreateOptions(), Server::LocalOnly),
                          {u"--fixed-body"_s}),
            {u"It needs a scope: --keys, --categories, or both (a call passes when either names"_s,
             u"its row), or --pin KEY alone, which reaches KEY's contract as it is now."_s,
             u"A key or category that no row has is refused (exit 3, reason unknown_scope), since"_s,
             u"it is most often a typo; --allow-unknown makes the token anyway, and it reaches such"_s,
             u"a row once one exists."_s}),
        entry(u"token list"_s, {}, u"the capability tokens, never their values"_s, &CtlCommands::tokenList,
              {}, Server::LocalOnly),
        entry(u"token revoke"_s, u"ID"_s, u"revoke a capability token"_s, &CtlCommands::tokenRevoke, {},
              Server::LocalOnly),
        entry(u"help"_s, u"[COMMAND]"_s, u"what a command does and the options it takes"_s,
              &CtlCommands::help, {flag(u"man"_s, u"print this whole manual as a man page (roff)"_s)}),
        withDetails(entry(u"completion"_s, u"bash"_s, u"the shell completion script for capdeskctl"_s,
                          &CtlCommands::completion),
                    {u"Load it in a shell with `source <(capdeskctl completion bash)`; the package"_s,
                     u"installs it for every bash."_s}),
    };
    return table;
}

} // namespace

const QList<CtlCommand> &CtlCommandTable::commands()
{
    static const QList<CtlCommand> table = buildCommands();
    return table;
}

const QList<QCommandLineOption> &CtlCommandTable::commonOptions()
{
    static const QList<QCommandLineOption> options{
        valued(u"db"_s, u"FILE|URL"_s,
               u"the directory file, or postgresql://USER@HOST:PORT/DB (default: the file the GUI opens)"_s),
        valued(u"signing-key"_s, u"FILE"_s,
               u"the receipt-signing key's PEM file (mode 0600), made only for a directory without a "
               "key or by signing-key new; servers on one directory share it"_s),
        valued(u"server"_s, u"URL"_s,
               u"work on a server's directory (owner key from CAPDESK_TERMINAL_KEY)"_s),
        valued(u"ca-file"_s, u"FILE"_s,
               u"PEM CA certificates trusted beside the system roots for an https --server"_s),
        QCommandLineOption({u"h"_s, u"help"_s}, u"this help"_s),
        flag(u"version"_s, u"print capdeskctl's version"_s),
    };
    return options;
}

QList<QCommandLineOption> CtlCommandTable::allOptions()
{
    QList<QCommandLineOption> all = commonOptions();
    QStringList names;
    for (const QCommandLineOption &option : all)
        names.append(option.names());
    for (const CtlCommand &command : commands()) {
        for (const QCommandLineOption &option : command.options) {
            if (names.contains(option.names().constFirst()))
                continue;
            names.append(option.names());
            all.append(option);
        }
    }
    return all;
}

const CtlCommand *CtlCommandTable::find(const QString &name)
{
    const QList<CtlCommand> &table = commands();
    const auto found = std::find_if(table.cbegin(), table.cend(),
                                    [&name](const CtlCommand &command) { return command.name == name; });
    return found == table.cend() ? nullptr : &*found;
}

QString CtlCommandTable::usageLine(const QString &name)
{
    const CtlCommand *command = find(name);
    Q_ASSERT(command);
    return command ? command->usageLine() : QString();
}

QList<const CtlCommand *> CtlCommandTable::group(const QString &name)
{
    QList<const CtlCommand *> members;
    for (const CtlCommand &command : commands()) {
        if (command.name != name && command.group() == name)
            members.append(&command);
    }
    return members;
}

const CtlCommand *CtlCommandTable::resolve(const QString &command, const QStringList &positional,
                                           QString *error)
{
    if (const CtlCommand *found = find(command))
        return found;
    const QList<const CtlCommand *> members = group(command);
    if (members.isEmpty()) {
        *error = u"unknown command '%1'"_s.arg(command);
        return nullptr;
    }
    QStringList subcommands;
    for (const CtlCommand *member : members)
        subcommands.append(member->name.section(u' ', 1));
    const QString choices = subcommands.size() == 1 ? subcommands.constFirst()
                                                    : subcommands.mid(0, subcommands.size() - 1).join(u", "_s)
                                                          + u" or "_s + subcommands.constLast();
    const QString sub = positional.value(0);
    if (sub.isEmpty()) {
        *error = u"%1 needs %2"_s.arg(command, choices);
        return nullptr;
    }
    if (const CtlCommand *found = find(command + u' ' + sub))
        return found;
    *error = u"unknown %1 command '%2' (%3)"_s.arg(command, sub, choices);
    return nullptr;
}
