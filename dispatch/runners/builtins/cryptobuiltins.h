#pragma once

class BuiltinRegistry;

// Hashing and identifiers: sha256, uuid.
void registerCryptoBuiltins(BuiltinRegistry &registry);
