#include "app/capdeskctl/ctllintcommands.h"

#include "app/capdeskctl/ctloutput.h"
#include "dispatch/contract/contractdocument.h"
#include "dispatch/lint/linter.h"
#include "dispatch/lint/lintreport.h"
#include "dispatch/mcp/mcpcost.h"
#include "dispatch/mcp/mcptoolcatalog.h"
#include "dispatch/store/directorystore.h"

#include <algorithm>

using namespace Qt::StringLiterals;

CtlLintCommands::CtlLintCommands(const CtlArguments &args, std::shared_ptr<DirectoryStore> store)
    : m_args(args), m_store(std::move(store))
{}

int CtlLintCommands::lint()
{
    const StoreResult<QList<Row>> all = m_store->allRows();
    if (!all.ok())
        return CtlOutput::fail(all.error());
    QList<Row> selected;
    if (m_args.positional.isEmpty())
        selected = all.value();
    for (const QString &key : m_args.positional) {
        const auto found = std::find_if(all.value().cbegin(), all.value().cend(),
                                        [&key](const Row &row) { return row.key == key; });
        if (found == all.value().cend())
            return CtlOutput::fail(StoreError::make(StoreError::Kind::NotFound, u"no row '%1'"_s.arg(key)));
        selected.append(*found);
    }
    const DirectoryIndex index = DirectoryIndex::build(all.value());
    const Linter linter(index);
    QList<LintFinding> findings;
    bool compliant = true;
    for (const Row &row : std::as_const(selected)) {
        const QList<LintFinding> rowFindings = linter.lint(row);
        compliant = compliant && Linter::isCompliant(rowFindings);
        findings.append(rowFindings);
    }
    // The GUI's exported report and this output are one format.
    CtlOutput::printRaw(LintReport::toJson(findings));
    return compliant ? CtlOutput::Ok : CtlOutput::Findings;
}

int CtlLintCommands::contract()
{
    if (m_args.positional.size() != 1)
        return CtlOutput::usage();
    const StoreResult<Row> row = m_store->row(m_args.positional.first());
    if (!row.ok())
        return CtlOutput::fail(row.error());
    CtlOutput::printRaw(ContractDocument::render(row.value()).toUtf8());
    return CtlOutput::Ok;
}

int CtlLintCommands::mcpTools()
{
    if (!m_args.positional.isEmpty())
        return CtlOutput::usage();
    const QString named = m_args.value(u"--tools"_s);
    const std::optional<McpOptions::Projection> projection = McpOptions::projectionNamed(named);
    if (!projection)
        return CtlOutput::usage(u"--tools is rows or contract, not '%1'"_s.arg(named));
    if (!m_args.has(u"--cost"_s)) {
        const StoreResult<QJsonArray> tools = toolsOf(*projection);
        if (!tools.ok())
            return CtlOutput::fail(tools.error());
        CtlOutput::printJson(QJsonObject{{u"tools"_s, tools.value()}});
        return CtlOutput::Ok;
    }
    // Without --tools, both projections side by side: the choice the cost is for.
    QJsonObject costs{{u"note"_s, u"tokens are estimates at ~4 bytes each, not a tokenizer's count"_s}};
    for (const auto &[name, each] : {std::pair{u"rows"_s, McpOptions::Projection::Rows},
                                     std::pair{u"contract"_s, McpOptions::Projection::Contract}}) {
        if (!named.isEmpty() && each != *projection)
            continue;
        const StoreResult<QJsonArray> tools = toolsOf(each);
        if (!tools.ok())
            return CtlOutput::fail(tools.error());
        costs.insert(name, McpCost::of(tools.value()).toJson());
    }
    CtlOutput::printJson(costs);
    return CtlOutput::Ok;
}

StoreResult<QJsonArray> CtlLintCommands::toolsOf(McpOptions::Projection projection) const
{
    McpOptions options;
    options.projection = projection;
    McpToolCatalog catalog(m_store, nullptr, options);
    return catalog.tools();
}
