/*
** CCrypto: Debian's OpenSSL libcrypto (libssl-dev), found through pkg-config, for the SHA-256
** of plugin folders in lockfiles. Only the EVP digest calls are used.
*/
#ifndef SENDINGSTATE_CCRYPTO_H
#define SENDINGSTATE_CCRYPTO_H

#include <openssl/evp.h>

#endif
