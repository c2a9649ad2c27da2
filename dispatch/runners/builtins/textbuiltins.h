#pragma once

class BuiltinRegistry;

// String builtins: echo, upper, lower, trim, length, concat, replace, regex_extract,
// last_reply_of, url_encode, base64.
void registerTextBuiltins(BuiltinRegistry &registry);
