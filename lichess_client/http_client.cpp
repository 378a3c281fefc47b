// HttpClient: libcurl easy handles (pooled, for plain calls) and multi handles (for streams).
#include "lichess_client/http_client.hpp"

#include <curl/curl.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <array>
#include <mutex>
#include <stdexcept>

#include "common/text.hpp"
#include "common/url.hpp"

#ifndef OUTPOST_VERSION
#define OUTPOST_VERSION "0.0.0"
#endif

namespace lichess {

namespace {

// curl_global_init is not thread-safe on old libcurl; once per process, never cleaned up,
// so that handles living in static objects stay valid until exit.
void global_init() {
    static std::once_flag once;
    std::call_once(once, [] {
        if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
            throw std::runtime_error("curl_global_init failed");
        }
    });
}

struct EasyDeleter {
    void operator()(CURL* h) const { curl_easy_cleanup(h); }
};
using Easy = std::unique_ptr<CURL, EasyDeleter>;

struct SlistDeleter {
    void operator()(curl_slist* l) const { curl_slist_free_all(l); }
};
using Slist = std::unique_ptr<curl_slist, SlistDeleter>;

struct MultiDeleter {
    void operator()(CURLM* m) const { curl_multi_cleanup(m); }
};
using Multi = std::unique_ptr<CURLM, MultiDeleter>;

std::string sanitize_username(std::string_view name) {
    std::string out;
    for (const char c : name) {
        const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                        (c >= '0' && c <= '9') || c == '_' || c == '-';
        if (ok) out += c;
    }
    return out;
}

bool valid_token(std::string_view token) {
    return token.size() <= 8192 && std::all_of(token.begin(), token.end(), [](char c) {
               return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                      c == '_';
           });
}

// Collects body bytes; curl calls it inside curl_easy_perform / curl_multi_perform.
struct Sink {
    std::string data;
    std::size_t max = 0;
    bool overflow = false;
    std::chrono::steady_clock::time_point last_byte = std::chrono::steady_clock::now();
};

extern "C" std::size_t write_cb(char* ptr, std::size_t size, std::size_t n, void* user) {
    auto* sink = static_cast<Sink*>(user);
    const std::size_t len = size * n;
    sink->last_byte = std::chrono::steady_clock::now();
    if (sink->max != 0 && sink->data.size() + len > sink->max) {
        sink->overflow = true;
        return 0;  // aborts the transfer with CURLE_WRITE_ERROR
    }
    sink->data.append(ptr, len);
    return len;
}

const char* method_name(Method m) { return m == Method::Get ? "GET" : "POST"; }

// Progress callback of a request with a stop token: a non-zero return aborts the transfer
// (CURLE_ABORTED_BY_CALLBACK). curl calls it at least once a second, also while waiting.
extern "C" int stop_cb(void* user, curl_off_t, curl_off_t, curl_off_t, curl_off_t) {
    return static_cast<const std::stop_token*>(user)->stop_requested() ? 1 : 0;
}

// The Retry-After header of the reply just received (curl parses seconds and HTTP dates).
std::optional<Millis> retry_after(CURL* h) {
    curl_off_t seconds = 0;
    if (curl_easy_getinfo(h, CURLINFO_RETRY_AFTER, &seconds) != CURLE_OK || seconds <= 0) {
        return std::nullopt;
    }
    return Millis{std::min<curl_off_t>(seconds, 7 * 86400) * 1000};
}

}  // namespace

struct HttpClient::Impl {
    std::mutex mutex;
    std::vector<Easy> idle;  // reused handles keep their connection cache (lower move latency)

    Easy take() {
        {
            std::lock_guard lock(mutex);
            if (!idle.empty()) {
                Easy h = std::move(idle.back());
                idle.pop_back();
                curl_easy_reset(h.get());
                return h;
            }
        }
        return Easy(curl_easy_init());
    }
    void give_back(Easy h) {
        std::lock_guard lock(mutex);
        if (idle.size() < 8) idle.push_back(std::move(h));
    }
};

const char* to_string(StreamEnd::Kind k) {
    switch (k) {
        case StreamEnd::Kind::Closed:
            return "closed";
        case StreamEnd::Kind::Stopped:
            return "stopped";
        case StreamEnd::Kind::Silent:
            return "silent";
        case StreamEnd::Kind::Network:
            return "network error";
        case StreamEnd::Kind::Http:
            return "http error";
    }
    return "?";
}

std::optional<std::string> check_base_url(std::string_view url) {
    std::string_view rest;
    bool https = false;
    if (url.starts_with("https://")) {
        https = true;
        rest = url.substr(8);
    } else if (url.starts_with("http://")) {
        rest = url.substr(7);
    } else {
        return "base URL must start with https:// (or http:// for a loopback host): '" +
               std::string(url) + "'";
    }
    const std::string_view authority = rest.substr(0, rest.find_first_of("/?#"));
    if (authority.find('@') != std::string_view::npos) {
        return "base URL must not contain user info: '" + std::string(url) + "'";
    }
    std::string_view host = authority;
    if (host.starts_with('[')) {
        host = host.substr(
            0, host.find(']') == std::string_view::npos ? host.size() : host.find(']') + 1);
    } else {
        host = host.substr(0, host.find(':'));
    }
    if (host.empty()) return "base URL has no host: '" + std::string(url) + "'";
    if (!https && !common::is_loopback_host(host)) {
        return "plain http is allowed only for loopback hosts (127.0.0.0/8, localhost, ::1); "
               "use https for '" +
               std::string(host) + "'";
    }
    return std::nullopt;
}

std::string url_encode(std::string_view s) {
    static constexpr char kHex[] = "0123456789ABCDEF";
    std::string out;
    out.reserve(s.size());
    for (const char ch : s) {
        const auto c = static_cast<unsigned char>(ch);
        const bool unreserved = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                                (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.' ||
                                c == '~';
        if (unreserved) {
            out += ch;
        } else {
            out += '%';
            out += kHex[c >> 4];
            out += kHex[c & 15];
        }
    }
    return out;
}

std::string form_encode(const std::vector<std::pair<std::string, std::string>>& fields) {
    std::string out;
    for (const auto& [key, value] : fields) {
        if (!out.empty()) out += '&';
        out += url_encode(key);
        out += '=';
        out += url_encode(value);
    }
    return out;
}

HttpClient::HttpClient(HttpConfig config) : config_(std::move(config)) {
    if (auto err = check_base_url(config_.base_url)) throw std::invalid_argument(*err);
    if (!valid_token(config_.token)) {
        // Never echo the token: it may be a real secret with a stray character.
        throw std::invalid_argument("API token contains characters other than A-Z a-z 0-9 _");
    }
    global_init();
    base_url_ = config_.base_url;
    while (base_url_.ends_with('/')) base_url_.pop_back();
    token_ = config_.token;
    set_username(config_.username);
    impl_ = std::make_unique<Impl>();
}

HttpClient::~HttpClient() = default;

std::string HttpClient::user_agent() const {
    std::lock_guard lock(ua_mutex_);
    return user_agent_;
}

void HttpClient::set_username(std::string_view username) {
    std::string ua = std::string("outpost/") + OUTPOST_VERSION;
    const std::string user = sanitize_username(username);
    if (!user.empty()) ua += " user:" + user;
    std::lock_guard lock(ua_mutex_);
    user_agent_ = std::move(ua);
}

std::string HttpClient::redact(std::string text) const {
    if (token_.empty()) return text;
    // The whole token, then its body without the "lip_" prefix (a server echoing only the part
    // after the prefix still shows the secret).
    const std::string_view body =
        std::string_view(token_).starts_with("lip_") ? std::string_view(token_).substr(4) : "";
    for (const std::string_view secret : {std::string_view(token_), body}) {
        // A body shorter than config::kMinTokenLength would match ordinary text.
        if (secret.empty() || (secret.data() != token_.data() && secret.size() < 6)) continue;
        for (std::size_t pos = text.find(secret); pos != std::string::npos;
             pos = text.find(secret, pos))
            text.replace(pos, secret.size(), "<redacted>");
    }
    return text;
}

namespace {

// Options common to plain and streaming requests. The returned list must outlive the transfer.
Slist setup(CURL* h, const HttpRequest& req, const std::string& url, const std::string& ua,
            const std::string& token, const HttpConfig& cfg, Sink& sink, char* errbuf) {
    curl_easy_setopt(h, CURLOPT_URL, url.c_str());
    curl_easy_setopt(h, CURLOPT_USERAGENT, ua.c_str());
    curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);  // threads: no SIGALRM for DNS timeouts
    curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(cfg.connect_timeout.count()));
#if LIBCURL_VERSION_NUM >= 0x075500
    curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
#else
    curl_easy_setopt(h, CURLOPT_PROTOCOLS, static_cast<long>(CURLPROTO_HTTP | CURLPROTO_HTTPS));
#endif
    // TLS verification is always on; there is deliberately no option to disable it.
    curl_easy_setopt(h, CURLOPT_SSL_VERIFYPEER, 1L);
    curl_easy_setopt(h, CURLOPT_SSL_VERIFYHOST, 2L);
    // A redirect could carry the Authorization header elsewhere: never follow one.
    curl_easy_setopt(h, CURLOPT_FOLLOWLOCATION, 0L);
    curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, write_cb);
    curl_easy_setopt(h, CURLOPT_WRITEDATA, &sink);
    curl_easy_setopt(h, CURLOPT_ERRORBUFFER, errbuf);
    curl_easy_setopt(h, CURLOPT_TCP_KEEPALIVE, 1L);

    curl_slist* list = nullptr;
    if (req.authenticated && !token.empty()) {
        list = curl_slist_append(list, ("Authorization: Bearer " + token).c_str());
    }
    list = curl_slist_append(list, ("Accept: " + req.accept).c_str());
    if (req.method == Method::Post) {
        curl_easy_setopt(h, CURLOPT_POST, 1L);
        curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE, static_cast<long>(req.body.size()));
        curl_easy_setopt(h, CURLOPT_POSTFIELDS, req.body.c_str());
        const std::string ct =
            req.content_type.empty() ? "application/x-www-form-urlencoded" : req.content_type;
        list = curl_slist_append(list, ("Content-Type: " + ct).c_str());
        list = curl_slist_append(list, "Expect:");  // no 100-continue round trip
    }
    curl_easy_setopt(h, CURLOPT_HTTPHEADER, list);
    return Slist(list);
}

std::string curl_message(CURLcode code, const char* errbuf) {
    std::string msg = curl_easy_strerror(code);
    if (errbuf[0] != '\0') msg += std::string(": ") + errbuf;
    while (!msg.empty() && (msg.back() == '\n' || msg.back() == '\r')) msg.pop_back();
    return msg;
}

}  // namespace

Result<HttpResponse> HttpClient::perform(const HttpRequest& req) {
    Easy h = impl_->take();
    if (!h) return ApiError{ApiError::Kind::Network, 0, "curl_easy_init failed", {}, {}};
    Sink sink;
    sink.max = config_.max_body;
    std::array<char, CURL_ERROR_SIZE> errbuf{};
    const std::string url = base_url_ + req.target;
    const std::string ua = user_agent();
    Slist headers = setup(h.get(), req, url, ua, token_, config_, sink, errbuf.data());
    const Millis timeout = std::min(config_.request_timeout, req.timeout.value_or(Millis::max()));
    curl_easy_setopt(h.get(), CURLOPT_TIMEOUT_MS, static_cast<long>(timeout.count()));
    if (req.stop.stop_possible()) {
        curl_easy_setopt(h.get(), CURLOPT_NOPROGRESS, 0L);
        curl_easy_setopt(h.get(), CURLOPT_XFERINFOFUNCTION, stop_cb);
        curl_easy_setopt(h.get(), CURLOPT_XFERINFODATA, const_cast<std::stop_token*>(&req.stop));
    }

    const auto start = std::chrono::steady_clock::now();
    const CURLcode code = curl_easy_perform(h.get());
    const auto ms = std::chrono::duration_cast<Millis>(std::chrono::steady_clock::now() - start);
    if (code == CURLE_ABORTED_BY_CALLBACK && req.stop.stop_requested()) {
        return ApiError{ApiError::Kind::Cancelled, 0, "request cancelled", {}, {}};
    }
    if (code != CURLE_OK) {
        std::string msg = sink.overflow ? "reply larger than " + std::to_string(sink.max) + " bytes"
                                        : curl_message(code, errbuf.data());
        spdlog::debug("http: {} {} failed after {} ms: {}", method_name(req.method), req.target,
                      ms.count(), common::printable(msg));
        return ApiError{ApiError::Kind::Network, 0, redact(std::move(msg)), {}, {}};
    }
    HttpResponse resp;
    long status = 0;
    curl_easy_getinfo(h.get(), CURLINFO_RESPONSE_CODE, &status);
    resp.status = static_cast<int>(status);
    char* ct = nullptr;
    if (curl_easy_getinfo(h.get(), CURLINFO_CONTENT_TYPE, &ct) == CURLE_OK && ct != nullptr) {
        resp.content_type = ct;
    }
    resp.body = std::move(sink.data);
    resp.retry_after = retry_after(h.get());
    spdlog::trace("http: {} {} -> {} in {} ms ({} bytes)", method_name(req.method), req.target,
                  resp.status, ms.count(), resp.body.size());
    headers.reset();
    impl_->give_back(std::move(h));
    return resp;
}

StreamEnd HttpClient::stream(const HttpRequest& req, std::stop_token stop, Millis silence,
                             const std::function<void(std::string_view)>& on_bytes) {
    using Clock = std::chrono::steady_clock;
    StreamEnd end;
    Easy h(curl_easy_init());
    Multi multi(curl_multi_init());
    if (!h || !multi) {
        end.kind = StreamEnd::Kind::Network;
        end.message = "curl init failed";
        return end;
    }
    Sink sink;  // unbounded here: drained after every curl_multi_perform
    std::array<char, CURL_ERROR_SIZE> errbuf{};
    const std::string url = base_url_ + req.target;
    const std::string ua = user_agent();
    Slist headers = setup(h.get(), req, url, ua, token_, config_, sink, errbuf.data());
    if (req.timeout) {
        curl_easy_setopt(h.get(), CURLOPT_TIMEOUT_MS, static_cast<long>(req.timeout->count()));
    }
    curl_multi_add_handle(multi.get(), h.get());
    // Detaches the easy handle before either is cleaned up, also when on_bytes throws.
    struct Detach {
        CURLM* multi;
        CURL* easy;
        ~Detach() { curl_multi_remove_handle(multi, easy); }
    } detach{multi.get(), h.get()};

    // Wakes curl_multi_poll at once when another thread asks us to stop.
    CURLM* raw_multi = multi.get();
    std::stop_callback wake(stop, [raw_multi] { curl_multi_wakeup(raw_multi); });

    const Millis poll_step = std::clamp(silence / 4, Millis{10}, Millis{1000});
    int status = 0;
    bool done = false;
    CURLcode result = CURLE_OK;
    while (true) {
        int running = 0;
        const CURLMcode mc = curl_multi_perform(multi.get(), &running);
        if (!sink.data.empty()) {
            if (status == 0) {
                long code = 0;
                curl_easy_getinfo(h.get(), CURLINFO_RESPONSE_CODE, &code);
                status = static_cast<int>(code);
            }
            std::string chunk;
            chunk.swap(sink.data);
            if (status >= 200 && status < 300) {
                end.bytes += chunk.size();
                on_bytes(chunk);
            } else if (end.body.size() < 64 * 1024) {
                end.body += chunk;
            }
        }
        if (mc != CURLM_OK) {
            end.kind = StreamEnd::Kind::Network;
            end.message = curl_multi_strerror(mc);
            break;
        }
        if (running == 0) {
            int left = 0;
            while (CURLMsg* msg = curl_multi_info_read(multi.get(), &left)) {
                if (msg->msg == CURLMSG_DONE) result = msg->data.result;
            }
            done = true;
            break;
        }
        if (stop.stop_requested()) {
            end.kind = StreamEnd::Kind::Stopped;
            break;
        }
        if (Clock::now() - sink.last_byte >= silence) {
            end.kind = StreamEnd::Kind::Silent;
            break;
        }
        curl_multi_poll(multi.get(), nullptr, 0, static_cast<int>(poll_step.count()), nullptr);
    }
    if (status == 0) {
        long code = 0;
        curl_easy_getinfo(h.get(), CURLINFO_RESPONSE_CODE, &code);
        status = static_cast<int>(code);
    }
    end.status = status;
    if (done) {
        if (result != CURLE_OK) {
            end.kind = StreamEnd::Kind::Network;
            end.message = redact(curl_message(result, errbuf.data()));
        } else if (status < 200 || status >= 300) {
            end.kind = StreamEnd::Kind::Http;
            end.retry_after = retry_after(h.get());
        } else {
            end.kind = StreamEnd::Kind::Closed;
        }
    }
    spdlog::trace("http: stream {} ended: {} (status {}, {} bytes)", req.target,
                  to_string(end.kind), status, end.bytes);
    return end;
}

}  // namespace lichess
