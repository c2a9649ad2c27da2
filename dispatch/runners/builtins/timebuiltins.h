#pragma once

class BuiltinRegistry;

// Clock builtins: now, sleep_ms.
void registerTimeBuiltins(BuiltinRegistry &registry);
