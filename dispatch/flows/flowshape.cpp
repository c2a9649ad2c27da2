#include "dispatch/flows/flowshape.h"

#include "dispatch/templates/templatecontext.h"
#include "dispatch/templates/templatesubstitution.h"

#include <QJsonArray>
#include <QSet>

using namespace Qt::StringLiterals;

namespace {

bool dependsOnEarlierSteps(const QString &body, bool firstStep, const QSet<QString> &bound)
{
    const QList<TemplatePlaceholder> placeholders = TemplateSubstitution::placeholders(body);
    for (const TemplatePlaceholder &placeholder : placeholders) {
        if (placeholder.kind == TemplatePlaceholder::Kind::Prev && !firstStep)
            return true;
        if (placeholder.kind == TemplatePlaceholder::Kind::Name && bound.contains(placeholder.name))
            return true;
    }
    return false;
}

} // namespace

QJsonObject FlowShape::request(const FlowPlan &plan, const QString &body)
{
    TemplateContext context;
    context.args = TemplateContext::splitBody(body);
    context.prev = body;
    QSet<QString> bound;
    QJsonArray steps;
    for (int i = 0; i < plan.steps.size(); ++i) {
        const FlowStep &step = plan.steps[i];
        QJsonArray calls;
        QSet<QString> boundHere; // branches run together: none sees another's binding
        for (const FlowCall &call : step.calls) {
            QJsonObject object = call.toJson();
            object.insert(
                u"resolved_body"_s,
                dependsOnEarlierSteps(call.body, i == 0, bound)
                    ? QJsonValue(QJsonValue::Null)
                    : QJsonValue(TemplateSubstitution::apply(call.body, context, TemplateMode::Raw).text));
            calls.append(object);
            if (!call.binding.isEmpty())
                boundHere.insert(call.binding);
        }
        bound.unite(boundHere);
        QJsonObject object = step.toJson();
        if (step.fanOut)
            object.insert(u"branches"_s, calls);
        else
            object.insert(u"resolved_body"_s, calls.first().toObject().value(u"resolved_body"_s));
        if (!step.binding.isEmpty())
            bound.insert(step.binding);
        steps.append(object);
    }
    return {{u"steps"_s, steps}};
}
