#pragma once

class BuiltinRegistry;

// Builtins that steer a flow: fail.
void registerControlBuiltins(BuiltinRegistry &registry);
