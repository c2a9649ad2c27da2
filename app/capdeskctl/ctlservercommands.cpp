#include "app/capdeskctl/ctlservercommands.h"

#include "app/capdeskctl/ctloutput.h"
#include "app/capdeskctl/ctlrefusalnote.h"
#include "dispatch/runners/tlstrust.h"
#include "remote/remoteconfirmation.h"
#include "remote/remotedispatcher.h"
#include "remote/serverconnection.h"
#include "remote/servererrors.h"

#include <QJsonDocument>
#include <QJsonObject>

using namespace Qt::StringLiterals;

StoreResult<std::shared_ptr<ServerConnection>> CtlServerCommands::connect(const CtlArguments &args)
{
    const QString url = args.value(u"--server"_s);
    const QUrl base(url, QUrl::StrictMode);
    if (!base.isValid() || (base.scheme() != "http"_L1 && base.scheme() != "https"_L1)
        || base.host().isEmpty())
        return StoreError::make(
            StoreError::Kind::Invalid,
            u"--server wants an http(s) URL such as http://127.0.0.1:8787, not '%1'"_s.arg(url));
    if (!base.userInfo().isEmpty() || base.hasQuery())
        return StoreError::make(
            StoreError::Kind::Invalid,
            u"--server takes a plain base URL; the owner key comes from CAPDESK_TERMINAL_KEY"_s);
    ServerEndpoint endpoint;
    endpoint.baseUrl = base;
    endpoint.ownerKey = qEnvironmentVariable("CAPDESK_TERMINAL_KEY");
    const bool given = args.has(u"--ca-file"_s);
    endpoint.caFile = given ? args.value(u"--ca-file"_s) : qEnvironmentVariable("CAPDESK_CA_FILE");
    if (!endpoint.caFile.isEmpty()) {
        if (const QString problem = TlsTrust::caFileProblem(endpoint.caFile); !problem.isEmpty())
            return StoreError::make(StoreError::Kind::Invalid,
                                    (given ? u"--ca-file: "_s : u"CAPDESK_CA_FILE: "_s) + problem);
    }
    return std::make_shared<ServerConnection>(endpoint);
}

CtlServerCommands::CtlServerCommands(const CtlArguments &args, std::shared_ptr<ServerConnection> connection)
    : m_args(args), m_connection(std::move(connection))
{}

int CtlServerCommands::invoke()
{
    InvocationRequest request;
    request.key = m_args.positional.at(0);
    request.body = m_args.positional.value(1);
    request.shape = m_args.has(u"--shape"_s);
    request.token = m_args.value(u"--token"_s);
    request.audience = m_args.value(u"--audience"_s);
    request.ownerPresent = request.token.isEmpty() || m_args.has(u"--owner-present"_s);
    const ServerResponse response = m_connection->send(RemoteDispatcher::requestFor(request));
    if (!response.reached())
        return CtlOutput::fail(ServerErrors::fromResponse(response, m_connection->location()));
    const QJsonObject answer = QJsonDocument::fromJson(response.body).object();
    if (answer.isEmpty())
        return CtlOutput::fail(ServerErrors::fromResponse(response, m_connection->location()),
                               CtlOutput::Findings);
    // The server's answer is the response object of SPEC §11: print it as it came.
    CtlOutput::printJson(answer);
    // A refusal says it ran nothing; a deadline passed (504) may have sent something already.
    if (answer.value(u"ran"_s) == QJsonValue(false))
        CtlOutput::note(CtlRefusalNote::forReason(answer.value(u"error"_s).toString()));
    else if (response.status != 200)
        CtlOutput::note(
            u"the server answered %1: %2"_s.arg(response.status).arg(answer.value(u"error"_s).toString()));
    if (response.status == 404)
        return CtlOutput::NotFound;
    if (response.status != 200)
        return CtlOutput::Refused;
    return answer.value(u"ok"_s).toBool() ? CtlOutput::Ok : CtlOutput::Findings;
}

int CtlServerCommands::confirm()
{
    if (m_args.positional.size() != 1)
        return CtlOutput::usage();
    const StoreResult<RemoteConfirmation> confirmation =
        RemoteConfirmation::fetch(*m_connection, m_args.positional.at(0));
    if (!confirmation.ok())
        return CtlOutput::fail(confirmation.error());
    CtlOutput::printJson(confirmation.value().answer);
    if (!confirmation.value().reason.isEmpty())
        return CtlOutput::Findings;
    if (confirmation.value().status == "UNKNOWN_INVOCATION"_L1)
        return CtlOutput::NotFound;
    return confirmation.value().confirmed ? CtlOutput::Ok : CtlOutput::Findings;
}
