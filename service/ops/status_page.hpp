// The status page at `/` of the health endpoint: a StatusSnapshot as one HTML document, its CSS
// inline, no outside resource (no CDN, no web font). A small inline script ticks the running clock
// and fetches the page again every few seconds; without it a reload shows the same.
#pragma once

#include <string>
#include <string_view>

#include "service/ops/status.hpp"

namespace service {

// Every string that came from the server (names, titles, statuses, tournament names, ids) goes
// through common::html_escape, clipped to a line; nothing of the config but the server's address
// is shown. About 4 kB per game in progress.
[[nodiscard]] std::string render_status_page(const StatusSnapshot& snapshot);

// The page's one script, as it stands in the page.
extern const std::string_view kStatusPageScript;
// The Content-Security-Policy the page is served with: nothing from elsewhere, scripts only the
// one above (by its SHA-256, which a test checks), fetches only from the page's own origin.
extern const std::string_view kStatusPageCsp;

}  // namespace service
