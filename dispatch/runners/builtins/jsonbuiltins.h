#pragma once

class BuiltinRegistry;

// JSON builtins: json_get.
void registerJsonBuiltins(BuiltinRegistry &registry);
