#include "dispatch/runners/builtins/controlbuiltins.h"

#include "dispatch/runners/builtins/builtinregistry.h"

using namespace Qt::StringLiterals;

namespace {

// A row that always fails, so a flow's error path can be exercised on purpose.
QString fail(const BuiltinCall &call)
{
    return u"ERR: "_s + call.arg(0);
}

} // namespace

void registerControlBuiltins(BuiltinRegistry &registry)
{
    registry.add(u"fail"_s, fail, u"Fails with \"ERR: \" followed by arg 1"_s);
}
