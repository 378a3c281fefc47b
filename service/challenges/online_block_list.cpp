// OnlineBlockList: parsing, per-URL lists with keep-the-last-on-failure, and the fetch.
#include "service/challenges/online_block_list.hpp"

#include <spdlog/spdlog.h>

#include <cctype>
#include <condition_variable>
#include <mutex>

#include "common/text.hpp"
#include "lichess_client/http_client.hpp"

namespace service {

namespace {

lichess::ApiError error(lichess::ApiError::Kind kind, int status, std::string message) {
    lichess::ApiError e;
    e.kind = kind;
    e.status = status;
    e.message = std::move(message);
    return e;
}

}  // namespace

std::vector<std::string> parse_block_list(std::string_view text) {
    std::vector<std::string> names;
    while (!text.empty()) {
        const auto end = text.find('\n');
        const std::string_view line = common::trim(text.substr(0, end));
        text = end == std::string_view::npos ? std::string_view{} : text.substr(end + 1);
        if (!line.empty() && line.front() != '#') names.emplace_back(line);
    }
    return names;
}

lichess::Result<std::string> fetch_block_list(const std::string& url) {
    // HttpClient takes an origin and a target: split "https://host:port/path?q".
    const auto scheme_end = url.find("://");
    const auto path_start =
        scheme_end == std::string::npos ? std::string::npos : url.find('/', scheme_end + 3);
    const std::string origin = path_start == std::string::npos ? url : url.substr(0, path_start);
    const std::string target = path_start == std::string::npos ? "/" : url.substr(path_start);
    if (const auto bad = lichess::check_base_url(origin))
        return error(lichess::ApiError::Kind::Config, 0, *bad);
    try {
        lichess::HttpConfig config;
        config.base_url = origin;  // no token: the Authorization header is never sent
        config.request_timeout = std::chrono::seconds(15);
        config.max_body = 4 * 1024 * 1024;
        lichess::HttpClient http(config);
        lichess::HttpRequest request;
        request.target = target;
        request.authenticated = false;
        request.accept = "text/plain";
        auto reply = http.perform(request);
        if (!reply) return reply.error();
        if (reply->status < 200 || reply->status > 299)
            return error(lichess::ApiError::Kind::Http, reply->status,
                         "http " + std::to_string(reply->status));
        return std::move(reply->body);
    } catch (const std::exception& e) {
        return error(lichess::ApiError::Kind::Config, 0, e.what());
    }
}

OnlineBlockList::OnlineBlockList(std::vector<std::string> urls, Fetch fetch)
    : urls_(std::move(urls)), fetch_(std::move(fetch)) {}

std::vector<OnlineBlockList::Outcome> OnlineBlockList::refresh() {
    std::vector<Outcome> outcomes;
    for (const std::string& url : urls_) {
        Outcome o;
        o.url = url;
        auto text = fetch_(url);  // outside the lock: a slow server must not block contains()
        std::lock_guard lock(mutex_);
        auto& names = by_url_[url];
        if (text) {
            names.clear();
            for (const auto& n : parse_block_list(*text)) names.insert(common::lowercase(n));
            o.ok = true;
        } else {
            o.error = text.error().describe();
        }
        o.names = names.size();
        outcomes.push_back(std::move(o));
    }
    return outcomes;
}

bool OnlineBlockList::contains(std::string_view name) const {
    const std::string key = common::lowercase(name);
    std::lock_guard lock(mutex_);
    for (const auto& [url, names] : by_url_)
        if (names.contains(key)) return true;
    return false;
}

std::size_t OnlineBlockList::size() const {
    std::lock_guard lock(mutex_);
    std::set<std::string> all;
    for (const auto& [url, names] : by_url_) all.insert(names.begin(), names.end());
    return all.size();
}

namespace {

void refresh_and_log(OnlineBlockList& lists) {
    for (const auto& o : lists.refresh()) {
        if (o.ok)
            spdlog::info("challenge.online_block_list: {} names from {}", o.names, o.url);
        else
            spdlog::warn(
                "challenge.online_block_list: cannot read {} ({}); keeping the {} names "
                "read before",
                o.url, o.error, o.names);
    }
}

}  // namespace

BlockListRefresher::BlockListRefresher(OnlineBlockList& lists, std::chrono::milliseconds period) {
    if (lists.empty_config()) return;
    refresh_and_log(lists);
    thread_ = std::jthread([&lists, period](std::stop_token st) {
        std::mutex m;
        std::condition_variable_any cv;
        std::unique_lock lock(m);
        for (;;) {
            (void)cv.wait_for(lock, st, period, [] { return false; });
            if (st.stop_requested()) return;
            refresh_and_log(lists);
        }
    });
}

}  // namespace service
