#ifndef EVIDENCE_CCRYPTO_SHIM_H
#define EVIDENCE_CCRYPTO_SHIM_H

/// OpenSSL's message digests (EVP), for SHA-256.
#include <openssl/evp.h>

#endif
