#include "app/capdeskctl/ctlflowplancommand.h"

#include "app/capdeskctl/ctloutput.h"
#include "dispatch/flows/flowparser.h"
#include "dispatch/store/directorystore.h"

#include <cstdio>

using namespace Qt::StringLiterals;

CtlFlowPlanCommand::CtlFlowPlanCommand(const CtlArguments &args, std::shared_ptr<DirectoryStore> store)
    : m_args(args), m_store(std::move(store))
{}

int CtlFlowPlanCommand::run()
{
    if (m_args.positional.size() != 1)
        return CtlOutput::usage();
    const QString key = m_args.positional.first();
    const StoreResult<Row> row = m_store->row(key);
    if (!row.ok())
        return CtlOutput::fail(row.error());
    if (row.value().type != u"flow"_s) {
        return CtlOutput::fail(StoreError::make(StoreError::Kind::Invalid,
                                                u"%1 is a %2 row, not a flow"_s.arg(key, row.value().type)),
                               CtlOutput::Usage);
    }
    const FlowParseResult parsed = FlowParser::parse(row.value().content);
    if (!parsed.ok()) {
        CtlOutput::printJson(parsed.error->toJson());
        std::fprintf(stderr, "capdeskctl: %s: %s\n", qUtf8Printable(key),
                     qUtf8Printable(parsed.error->describe()));
        return CtlOutput::Findings;
    }
    QJsonObject plan = parsed.plan.toJson();
    plan.insert(u"ok"_s, true);
    plan.insert(u"key"_s, key);
    CtlOutput::printJson(plan);
    return CtlOutput::Ok;
}
