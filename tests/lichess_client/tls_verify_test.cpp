// HTTPS is always verified: against a loopback TLS server whose certificate no CA signed, the
// client fails before sending a request, so neither the request nor the token leaves it.
// (Plain http only for loopback hosts is covered by ApiConfig.PlainHttpOnlyForLoopback.)
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <memory>
#include <string>
#include <thread>

#include "lichess_client/http_client.hpp"

namespace lichess {
namespace {

template <class T, void (*Free)(T*)>
struct Deleter {
    void operator()(T* p) const { Free(p); }
};
using Key = std::unique_ptr<EVP_PKEY, Deleter<EVP_PKEY, EVP_PKEY_free>>;
using Cert = std::unique_ptr<X509, Deleter<X509, X509_free>>;
using Ctx = std::unique_ptr<SSL_CTX, Deleter<SSL_CTX, SSL_CTX_free>>;
using Ssl = std::unique_ptr<SSL, Deleter<SSL, SSL_free>>;

// A fresh self-signed certificate for "localhost" and 127.0.0.1, valid for a day: everything
// about it is right except that no trusted CA signed it.
std::pair<Key, Cert> self_signed() {
    Key key(EVP_EC_gen("P-256"));
    Cert cert(X509_new());
    if (!key || !cert) return {};
    X509_set_version(cert.get(), 2);
    ASN1_INTEGER_set(X509_get_serialNumber(cert.get()), 1);
    X509_gmtime_adj(X509_getm_notBefore(cert.get()), -60);
    X509_gmtime_adj(X509_getm_notAfter(cert.get()), 24 * 3600);
    X509_NAME* name = X509_get_subject_name(cert.get());
    X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC,
                               reinterpret_cast<const unsigned char*>("localhost"), -1, -1, 0);
    X509_set_issuer_name(cert.get(), name);
    X509_set_pubkey(cert.get(), key.get());
    if (X509_sign(cert.get(), key.get(), EVP_sha256()) == 0) return {};
    return {std::move(key), std::move(cert)};
}

// Accepts one connection on 127.0.0.1 and runs the TLS handshake; records whether it
// succeeded and how many request bytes arrived after it.
class TlsServer {
  public:
    TlsServer() {
        auto [key, cert] = self_signed();
        ctx_.reset(SSL_CTX_new(TLS_server_method()));
        if (!key || !ctx_ || SSL_CTX_use_certificate(ctx_.get(), cert.get()) != 1 ||
            SSL_CTX_use_PrivateKey(ctx_.get(), key.get()) != 1)
            return;
        fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in addr{};
        addr.sin_family = AF_INET;
        addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        socklen_t len = sizeof addr;
        if (fd_ < 0 || ::bind(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
            ::listen(fd_, 4) != 0 ||
            ::getsockname(fd_, reinterpret_cast<sockaddr*>(&addr), &len) != 0)
            return;
        port_ = ntohs(addr.sin_port);
        thread_ = std::thread([this] { serve(); });
    }
    ~TlsServer() {
        if (thread_.joinable()) thread_.join();
        if (fd_ >= 0) ::close(fd_);
    }

    int port() const { return port_; }
    void join() {
        if (thread_.joinable()) thread_.join();
    }
    bool accepted = false;
    bool handshake_ok = false;
    int request_bytes = 0;

  private:
    void serve() {
        pollfd p{fd_, POLLIN, 0};
        if (::poll(&p, 1, 10000) != 1) return;
        const int conn = ::accept(fd_, nullptr, nullptr);
        if (conn < 0) return;
        accepted = true;
        Ssl ssl(SSL_new(ctx_.get()));
        SSL_set_fd(ssl.get(), conn);
        if (SSL_accept(ssl.get()) == 1) {
            handshake_ok = true;
            char buf[4096];
            const int n = SSL_read(ssl.get(), buf, sizeof buf);
            request_bytes = n > 0 ? n : 0;
        }
        ERR_clear_error();
        ::close(conn);
    }

    Ctx ctx_;
    int fd_ = -1;
    int port_ = 0;
    std::thread thread_;
};

TEST(TlsVerification, SelfSignedCertificateIsRefusedBeforeAnyRequest) {
    TlsServer server;
    ASSERT_NE(server.port(), 0) << "could not start the TLS test server";

    HttpConfig config;
    config.base_url = "https://127.0.0.1:" + std::to_string(server.port());
    config.token = "lip_tlsTestToken";
    config.connect_timeout = Millis{5000};
    config.request_timeout = Millis{10000};
    HttpClient client(config);
    HttpRequest request;
    request.target = "/api/account";
    const auto result = client.perform(request);
    server.join();

    ASSERT_FALSE(result.ok()) << "an unverified certificate was accepted";
    EXPECT_EQ(result.error().kind, ApiError::Kind::Network);
    EXPECT_EQ(result.error().message.find("lip_tlsTestToken"), std::string::npos);
    EXPECT_TRUE(server.accepted);
    EXPECT_FALSE(server.handshake_ok) << "the client finished a handshake with an untrusted peer";
    EXPECT_EQ(server.request_bytes, 0) << "a request (with the token) reached the server";
}

}  // namespace
}  // namespace lichess
