// OpenSSL 3's libcrypto (Debian: libssl-dev): the EVP cipher, MAC and key interfaces,
// OSSL_PARAM building, the elliptic-curve point arithmetic and the random generator
// that SwiftATTCrypto's AES-128, AES-CMAC, P-256 and SecureRandom are built on.
//
// Declarations OpenSSL 3.0 deprecates (EC_KEY, AES_encrypt, CMAC_Init, ...) are left
// out altogether, so SwiftATTCrypto cannot come to depend on an interface that a later
// OpenSSL removes: using one is a compile error here, not a warning.
#define OPENSSL_API_COMPAT 30000
#define OPENSSL_NO_DEPRECATED 1

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/obj_mac.h>
#include <openssl/param_build.h>
#include <openssl/params.h>
#include <openssl/rand.h>

