#include "dispatch/receipts/opensslexit.h"

#include <openssl/crypto.h>

bool OpenSslExit::leaveCleanupToProcessExit()
{
    return OPENSSL_init_crypto(OPENSSL_INIT_NO_ATEXIT, nullptr) == 1;
}
