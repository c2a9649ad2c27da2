#include "dispatch/runners/httprunner.h"

#include "dispatch/call/callbudget.h"
#include "dispatch/runners/httpclient.h"
#include "dispatch/runners/httprequestbuilder.h"
#include "dispatch/secrets/redactor.h"

HttpRunner::HttpRunner(HttpClient &client) : m_client(client) {}

void HttpRunner::run(const RunContext &context, std::function<void(RunResult)> done)
{
    HttpCallPlan plan = HttpRequestBuilder::build(context);
    if (context.shape) {
        done(shapeFor(plan));
        return;
    }
    if (!plan.ok()) {
        done({plan.error, {}, plan.notes});
        return;
    }
    // The rest of this call tree's budget goes with every request: a Capdesk server the
    // row reaches (itself included, under any name or behind any proxy) lowers the tree it
    // starts to it, so a row calling its own /api/dispatch cannot start afresh. Shape mode
    // leaves it out: its values are the moment's, not part of the row's request.
    if (context.request.budget)
        plan.headers.append({CallBudget::headerName, context.request.budget->header(context.depth + 1)});
    m_client.send(plan, context.cancelled, [plan, done = std::move(done)](const HttpResponse &response) {
        done(outputFor(response, plan));
    });
}

RunResult HttpRunner::outputFor(const HttpResponse &response, const HttpCallPlan &plan)
{
    const Redactor redactor(plan.usedSecretValues);
    RunResult result{{}, {}, plan.notes};
    if (!response.ok()) {
        result.output = redactor.maskSecretValues(QStringLiteral("ERR: ") + response.transportError);
        return result;
    }
    QString output = QStringLiteral("HTTP %1:").arg(response.status) + QString::fromUtf8(response.body);
    if (response.truncated) {
        const QString flag =
            QStringLiteral("response body cut at %1 bytes (8 MiB)").arg(HttpClient::bodyLimit);
        output += QStringLiteral("\n[capdesk: %1]").arg(flag);
        result.notes << flag;
    }
    result.output =
        redactor.maskSecretValues(response.status >= 400 ? QStringLiteral("ERR: ") + output : output);
    return result;
}

RunResult HttpRunner::shapeFor(const HttpCallPlan &plan)
{
    const Redactor redactor(plan.usedSecretValues, plan.authQueryParameter);
    RunResult result{{}, redactor.redactDeep(plan.toShape()).toObject(), plan.notes};
    if (!plan.ok()) {
        // The request as far as it was built, so the editor can show where it broke.
        result.output = plan.error;
        result.notes << plan.error;
    }
    return result;
}
