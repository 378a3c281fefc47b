// OnlineBlockList: challenge.online_block_list, usernames read from plain-text lists on the web
// (one a line), refreshed at start and hourly; a list that cannot be read keeps its last names.
#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "lichess_client/result.hpp"

namespace service {

// The names of one list: each line trimmed; empty lines and lines starting with '#' skipped.
[[nodiscard]] std::vector<std::string> parse_block_list(std::string_view text);

// GET `url` without our token (a block list is no Lichess endpoint): https only, plain http
// only for this machine, as lichess_client's HttpClient enforces; 15 s; a non-2xx status is
// an error. Returns the body.
[[nodiscard]] lichess::Result<std::string> fetch_block_list(const std::string& url);

class OnlineBlockList {
  public:
    using Fetch = std::function<lichess::Result<std::string>(const std::string& url)>;

    // What one refresh did with one URL, for the log.
    struct Outcome {
        std::string url;
        bool ok = false;
        std::size_t names = 0;  // names now held for this URL (the old ones after a failure)
        std::string error;
    };

    OnlineBlockList(std::vector<std::string> urls, Fetch fetch);

    // Reads every URL once; a failure keeps that URL's last list. Thread-safe.
    std::vector<Outcome> refresh();
    // Case-insensitive; false for everyone before the first successful read. Thread-safe.
    [[nodiscard]] bool contains(std::string_view name) const;
    [[nodiscard]] std::size_t size() const;
    [[nodiscard]] bool empty_config() const { return urls_.empty(); }

  private:
    std::vector<std::string> urls_;
    Fetch fetch_;
    mutable std::mutex mutex_;
    std::map<std::string, std::set<std::string>> by_url_;  // lowercase names per URL
};

// Refreshes the lists now (before the first challenge, as lichess-bot does) and then every
// `period` on a thread of its own, logging what each read found; nothing when no list is
// configured. Destroying it stops and joins the thread.
class BlockListRefresher {
  public:
    BlockListRefresher(OnlineBlockList& lists, std::chrono::milliseconds period);

  private:
    std::jthread thread_;
};

}  // namespace service
