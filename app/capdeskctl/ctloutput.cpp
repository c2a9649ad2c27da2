#include "app/capdeskctl/ctloutput.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>

#include <cstdio>

namespace CtlOutput {

int exitCodeFor(const StoreError &error)
{
    switch (error.kind) {
    case StoreError::Kind::None:
        return Ok;
    case StoreError::Kind::NotFound:
        return NotFound;
    case StoreError::Kind::Invalid:
    case StoreError::Kind::AlreadyExists:
    case StoreError::Kind::Conflict:
    case StoreError::Kind::NotDirectory:
    case StoreError::Kind::TooNew:
    case StoreError::Kind::Unauthorized:
        return Refused;
    case StoreError::Kind::Unreachable:
        return Unreachable;
    case StoreError::Kind::Io:
    case StoreError::Kind::Cancelled:
        break;
    }
    return Findings;
}

void printRaw(const QByteArray &bytes)
{
    std::fwrite(bytes.constData(), 1, std::size_t(bytes.size()), stdout);
    std::fflush(stdout);
}

void printJson(const QJsonValue &value)
{
    const QJsonDocument document = value.isArray() ? QJsonDocument(value.toArray()) : QJsonDocument(value.toObject());
    printRaw(document.toJson(QJsonDocument::Indented));
}

int fail(const StoreError &error, int exitCode)
{
    QJsonObject answer{{QStringLiteral("ok"), false}, {QStringLiteral("error"), error.message}};
    // A refused row's broken rules, by code, as `lint` prints findings.
    if (!error.details.isEmpty() && error.details.first().toObject().contains(QStringLiteral("code")))
        answer.insert(QStringLiteral("findings"), error.details);
    printJson(answer);
    std::fprintf(stderr, "capdeskctl: %s\n", qUtf8Printable(error.message));
    return exitCode >= 0 ? exitCode : exitCodeFor(error);
}

void printUsage(std::FILE *to)
{
    std::fprintf(to,
                 "usage: capdeskctl COMMAND [--db FILE | --server URL] ARGS…\n"
                 "  init [--sample]              create a directory (with the sample rows)\n"
                 "  import FILE [--allow-noncompliant] [--restamp]\n"
                 "                               add rows from a SQL dump (of the directory table or a\n"
                 "                               whole database) or a JSON array; all or nothing.\n"
                 "                               Rows breaking hygiene rules are refused unless\n"
                 "                               --allow-noncompliant (they are then listed with their\n"
                 "                               codes); --restamp replaces invalid timestamps with now\n"
                 "  export [--format json|sql] [--out FILE]\n"
                 "  get KEY                      print one row\n"
                 "  put                          create or replace the row JSON on stdin\n"
                 "  patch KEY                    apply the fields JSON on stdin\n"
                 "  delete KEY                   remove one row\n"
                 "  invoke KEY [BODY] [--shape] [--token T --audience A [--owner-present]]\n"
                 "                               run a row (or build its request, sending nothing)\n"
                 "  serve [--listen 127.0.0.1:PORT] [--generate-key] [--dispatch-timeout MS] [--idle-timeout MS]\n"
                 "      [--request-timeout MS] [--max-connections N] [--max-connections-per-address N]\n"
                 "      [--max-header-bytes N] [--max-body-bytes N] [--max-unsent-bytes N]\n"
                 "      [--tls-cert FILE --tls-key FILE]\n"
                 "                               the REST server of SPEC §10 over --db\n"
                 "                               (owner key from CAPDESK_TERMINAL_KEY); HTTPS with a PEM\n"
                 "                               certificate (chain) and its unencrypted key, on any address\n"
                 "  lint [KEY…]                  hygiene findings (all rows, or these); exit 1 on any error\n"
                 "  contract KEY                 the row's contract document (Markdown)\n"
                 "  mcp-tools                    the MCP tools/list projection of the callable rows\n"
                 "  flow-plan KEY                the parsed flow: steps, bodies, bindings, fan-outs\n"
                 "  receipts [--key K] [--limit N]  signed receipts, newest first\n"
                 "  confirm INV_ID               whether a receipt exists and its signature holds\n"
                 "  verify-receipt FILE [--public-key PEM]  check a saved receipt offline\n"
                 "  public-key [--out FILE]      the receipt-signing public key (PEM)\n"
                 "  log [--key K] [--verify]     the hash-chained event log, or its check with the\n"
                 "                               receipt chains (exit 1 naming each finding)\n"
                 "  log --anchor                 a signed anchor of the log's end, to keep elsewhere\n"
                 "  log --verify --anchor FILE   the check, and that the log still holds that anchor\n"
                 "  token list | token revoke ID capability tokens, and making one:\n"
                 "  token create --audience A [--keys K,…] [--categories C,…] [--risk-ceiling low|high]\n"
                 "      [--pin KEY] [--fixed-body B] [--payload-ceiling BYTES] [--expires ISO|30d|12h]\n"
                 "      [--owner-gate] [--label L]   (the token's value is printed once)\n"
                 "Only init and import create a directory file; the other commands need one.\n"
                 "--server URL: get, put, patch, delete, import, export, invoke, lint, contract, mcp-tools,\n"
                 "  flow-plan and confirm against a server (owner key from CAPDESK_TERMINAL_KEY);\n"
                 "  import over a server writes row by row and stops at the first refusal.\n"
                 "--ca-file FILE (or CAPDESK_CA_FILE): PEM CA certificates trusted beside the system roots\n"
                 "  for an https --server (a private CA, or a self-signed server's own certificate).\n"
                 "Exit codes: 0 ok, 1 error, 2 usage, 3 not found, 4 refused (gate, owner key, conflict),\n"
                 "  5 the server did not answer (or its certificate was refused).\n");
}

int usage(const QString &message)
{
    std::fprintf(stderr, "capdeskctl: %s\n", qUtf8Printable(message));
    printUsage(stderr);
    return Usage;
}

} // namespace CtlOutput
