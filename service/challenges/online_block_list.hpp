// OnlineBlockList: challenge.online_block_list, usernames read from plain-text lists on the web
// (one a line), refreshed at start and hourly; a list that cannot be read keeps its last names.
#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <mutex>
#include <set>
#include <stop_token>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "lichess_client/api_error.hpp"

namespace service {

// The names of one list: each line trimmed; empty lines and lines starting with '#' skipped.
[[nodiscard]] std::vector<std::string> parse_block_list(std::string_view text);

// GET `url` without our token (a block list is no Lichess endpoint): https only, plain http
// only for this machine, as lichess_client's HttpClient enforces; 5 s at most, and `stop` ends it
// within about a second (curl's progress tick); a non-2xx status is an error. Returns the body.
[[nodiscard]] lichess::Result<std::string> fetch_block_list(const std::string& url,
                                                            std::stop_token stop = {});

class OnlineBlockList {
  public:
    using Fetch =
        std::function<lichess::Result<std::string>(const std::string& url, std::stop_token stop)>;

    // What one refresh did with one URL, for the log.
    struct Outcome {
        std::string url;
        bool ok = false;
        std::size_t names = 0;  // names now held for this URL (the old ones after a failure)
        std::string error;
    };

    OnlineBlockList(std::vector<std::string> urls, Fetch fetch);

    // Reads every URL once (until `stop`); a failure keeps that URL's last list. Thread-safe.
    std::vector<Outcome> refresh(std::stop_token stop = {});
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

// Reads the lists at once and then every `period`, on a thread of its own, logging what each read
// found; nothing when no list is configured. The reads never hold up the event stream (a
// challenge that comes before the first read is judged without the lists) nor shutdown:
// destroying it stops a read in flight and joins the thread within about a second.
class BlockListRefresher {
  public:
    BlockListRefresher(OnlineBlockList& lists, std::chrono::milliseconds period);

  private:
    std::jthread thread_;
};

}  // namespace service
