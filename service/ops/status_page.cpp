// The status page's HTML: the snapshot's parts in order (header, games, queue and slots, today,
// online sources, arenas, the last games), each string from outside escaped where it is written.
#include "service/ops/status_page.hpp"

#include <fmt/format.h>

#include <cstdlib>

#include "common/text.hpp"
#include "engine/variant.hpp"
#include "service/ops/board_svg.hpp"

namespace service {

// The clock format below is shown_clock's; the page is replaced whole every 2 s, so a fetch that
// fails marks the page stale instead of leaving old clocks running. Its hash is in kStatusPageCsp.
const std::string_view kStatusPageScript =
    R"JS((function(){var t0=Date.now();)JS"
    R"JS(function two(n){return(n<10?"0":"")+n})JS"
    R"JS(function fmt(ms){ms=Math.max(0,ms);var s=Math.floor(ms/1000),m=Math.floor(s/60),)JS"
    R"JS(h=Math.floor(m/60);if(ms<10000)return"0:"+two(s)+"."+Math.floor(ms/100)%10;)JS"
    R"JS(return h>0?h+":"+two(m%60)+":"+two(s%60):m+":"+two(s%60)})JS"
    R"JS(function tick(){var e=Date.now()-t0,c=document.querySelectorAll(".clock.run");)JS"
    R"JS(for(var i=0;i<c.length;i++){var left=c[i].getAttribute("data-ms")-e;)JS"
    R"JS(c[i].textContent=fmt(left);if(left<10000)c[i].classList.add("low")}})JS"
    R"JS(function stale(s){document.body.classList.toggle("stale",s)})JS"
    R"JS(function load(){fetch(location.pathname,{cache:"no-store"}).then(function(r){)JS"
    R"JS(if(!r.ok)throw r.status;return r.text()}).then(function(t){)JS"
    R"JS(var m=new DOMParser().parseFromString(t,"text/html").getElementById("live");)JS"
    R"JS(if(!m)throw 0;document.getElementById("live").replaceWith(document.importNode(m,true));)JS"
    R"JS(t0=Date.now();stale(false)}).catch(function(){stale(true)})})JS"
    R"JS(document.documentElement.className="js";setInterval(tick,200);setInterval(load,2000)})();)JS";

const std::string_view kStatusPageCsp =
    "default-src 'none'; style-src 'unsafe-inline'; "
    "script-src 'sha256-I0D6eM7K2te4ZhdLwQpvrLDIIB5ETNxfSdC9+WIQUXw='; connect-src 'self'; "
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

namespace {

constexpr std::string_view kStyle = R"CSS(
:root{--bg:#f3f4f7;--card:#fff;--ink:#1c2230;--mute:#687086;--line:#e2e5eb;--ok:#17844a;
--bad:#c53030;--warn:#a86a00;--link:#2f62c8}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--ink);
font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif}
a{color:var(--link);text-decoration:none}a:hover{text-decoration:underline}
header{background:#1c2230;color:#f4f6fb;padding:14px 24px;display:flex;flex-wrap:wrap;
align-items:center;gap:8px 14px}
header h1{margin:0 8px 0 0;font-size:20px;letter-spacing:.01em}
header .meta{color:#a9b1c4;font-size:13px;margin-left:auto}
.pill{display:inline-block;padding:2px 10px;border-radius:999px;font-size:12px;font-weight:600}
.pill.ok{background:#d5f2e1;color:#0f5c33}.pill.bad{background:#fbdcdc;color:#8f1d1d}
.pill.warn{background:#fcebc8;color:#6b4400}
.stale header{background:#6b1f1f}.stale header .meta:after{content:" \00b7  not updating"}
section{padding:14px 24px 4px}
h2{font-size:12px;text-transform:uppercase;letter-spacing:.08em;color:var(--mute);margin:0 0 10px}
h2 .n{color:var(--ink)}
.games{display:grid;grid-template-columns:repeat(auto-fill,minmax(288px,1fr));gap:14px}
.game,.panel{background:var(--card);border:1px solid var(--line);border-radius:10px}
.game{padding:10px 12px 8px}
.side{display:flex;align-items:center;gap:6px;padding:5px 0;min-width:0}
.side .who{flex:1;min-width:0;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.name{font-weight:600}.rating{color:var(--mute);font-size:12px}
.title{color:#b3541e;font-weight:700;font-size:11px;margin-right:3px}
.you{font-size:10px;font-weight:700;color:#fff;background:var(--link);border-radius:4px;
padding:0 4px;margin-left:4px;vertical-align:1px}
.clock{font:600 17px/1 "DejaVu Sans Mono",ui-monospace,monospace;background:#eef0f4;
color:#3a4256;padding:5px 8px;border-radius:6px;min-width:64px;text-align:right}
.clock.turn{background:#1c2230;color:#fff}.clock.low{background:var(--bad);color:#fff}
.board{display:block;width:100%;height:auto;border-radius:3px}
.sl{fill:#eed8b4}.sd{fill:#b5875d}.lm{fill:#e8d44d;opacity:.6}
.co{font-size:.24px;font-weight:700;fill:#6e4f33;opacity:.9}
.pk{font-size:.5px;font-weight:700;fill:var(--ink)}.unknown{font-size:2px;text-anchor:middle}
.pc{stroke-width:1.5px;stroke-linejoin:round;stroke-linecap:round}
.pc.w{fill:#fbfaf6;stroke:#262626;--d:#262626}.pc.b{fill:#302c29;stroke:#0b0b0b;--d:#ebe4d6}
.ln{fill:none;stroke:var(--d)}circle.ln{fill:var(--d);stroke:none}
.facts,.think{margin:4px 0 0;font-size:12.5px;color:var(--mute)}
.think b{color:var(--ink)}.src{display:inline-block;border-radius:4px;padding:0 5px;
font-size:11px;font-weight:700;text-transform:uppercase;letter-spacing:.04em;background:#e7ecf8;
color:#2f4f99;margin-right:4px}.src.book{background:#efe6fa;color:#5b2f99}
.src.tablebase,.src.syzygy{background:#def3e6;color:#17633a}.src.explorer,.src.cloud,.src.chessdb{
background:#fdf0d5;color:#7a5100}
.score.up{color:var(--ok)}.score.down{color:var(--bad)}
.links{margin:6px 0 0;font-size:12.5px}
.panels{display:grid;grid-template-columns:repeat(auto-fit,minmax(230px,1fr));gap:14px}
.panel{padding:12px 14px}.panel h2{margin-bottom:8px}
.panel p{margin:4px 0}.panel ol{margin:4px 0;padding-left:20px}
.big{font-size:26px;font-weight:700;letter-spacing:.02em}
.big .w{color:var(--ok)}.big .d{color:var(--mute)}.big .l{color:var(--bad)}
.mute,.empty{color:var(--mute)}
table{border-collapse:collapse;width:100%;background:var(--card);border:1px solid var(--line);
border-radius:10px;overflow:hidden}
th,td{text-align:left;padding:7px 12px;border-bottom:1px solid var(--line);white-space:nowrap}
th{font-size:11px;text-transform:uppercase;letter-spacing:.06em;color:var(--mute);
background:#f8f9fb}
td.opp{max-width:260px;overflow:hidden;text-overflow:ellipsis}
tr:last-child td{border-bottom:0}
.res{font-weight:700;border-radius:4px;padding:1px 7px;font-size:12px}
.res.win{background:#d5f2e1;color:#0f5c33}.res.loss{background:#fbdcdc;color:#8f1d1d}
.res.draw{background:#e6e8ee;color:#3a4256}.res.aborted{background:#f1f1f1;color:#7b7b7b}
.src-table{border:0}.src-table td,.src-table th{padding:4px 6px}.src-table td+td+td{
text-align:right}
footer{padding:14px 24px 22px;color:var(--mute);font-size:12px}
.defs{position:absolute}
)CSS";

std::string esc(std::string_view text, std::size_t max_chars = 40) {
    return common::html_escape(text, max_chars);
}

// The server's address for links: only an http(s) one (the config allows no other) is ever written
// into an href.
std::string site_of(const StatusSnapshot& s) {
    const bool web = s.site.starts_with("https://") || s.site.starts_with("http://");
    return esc(web ? std::string_view(s.site) : std::string_view("https://lichess.org"), 200);
}

// A path segment for a link: ids are letters and digits; anything else is %-encoded (the health
// server decodes it again, so an id of other characters still reaches its PGN file).
constexpr std::size_t kMaxLinkedIdChars = 64;
std::string path_segment(std::string_view id) {
    std::string out;
    for (const char c : id.substr(0, kMaxLinkedIdChars)) {
        const bool plain =
            (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
        out += plain ? std::string(1, c)
                     : fmt::format("%{:02X}", static_cast<unsigned>(static_cast<unsigned char>(c)));
    }
    return out;
}

// As the script's fmt(): "1:05:09", "3:07", "0:09.3" under ten seconds.
std::string shown_clock(std::int64_t ms) {
    ms = std::max<std::int64_t>(ms, 0);
    const std::int64_t s = ms / 1000, m = s / 60, h = m / 60;
    if (ms < 10000) return fmt::format("0:{:02}.{}", s, ms / 100 % 10);
    if (h > 0) return fmt::format("{}:{:02}:{:02}", h, m % 60, s % 60);
    return fmt::format("{}:{:02}", m, s % 60);
}

std::string duration_text(std::chrono::seconds d) {
    const std::int64_t s = std::max<std::int64_t>(d.count(), 0);
    if (s >= 86400) return fmt::format("{} d {} h", s / 86400, s % 86400 / 3600);
    if (s >= 3600) return fmt::format("{} h {} min", s / 3600, s % 3600 / 60);
    if (s >= 60) return fmt::format("{} min {} s", s / 60, s % 60);
    return fmt::format("{} s", s);
}

// What is left of a pause, short: "45 s", "12 min".
std::string left_text(WallTime::duration left) {
    const auto s = std::chrono::ceil<std::chrono::seconds>(left).count();
    return s < 100 ? fmt::format("{} s", s) : fmt::format("{} min", (s + 59) / 60);
}

// "14:03:27" (UTC).
std::string time_of_day(WallTime t) {
    const auto since_midnight =
        std::chrono::floor<std::chrono::seconds>(t) - std::chrono::floor<std::chrono::days>(t);
    const std::chrono::hh_mm_ss hms(since_midnight);
    return fmt::format("{:02}:{:02}:{:02}", hms.hours().count(), hms.minutes().count(),
                       hms.seconds().count());
}

// "14:03" today, "2026-11-26 14:03" before (UTC).
std::string when_text(WallTime t, WallTime now) {
    const auto day = std::chrono::floor<std::chrono::days>(t);
    const std::string hm = time_of_day(t).substr(0, 5);
    if (day == std::chrono::floor<std::chrono::days>(now)) return hm;
    const std::chrono::year_month_day ymd(day);
    return fmt::format("{}-{:02}-{:02} {}", static_cast<int>(ymd.year()),
                       static_cast<unsigned>(ymd.month()), static_cast<unsigned>(ymd.day()), hm);
}

// Our side's score: "+0.35", "-1.20", "#3", "#-2".
std::string score_text(const engine::Score& s) {
    if (s.is_mate) return fmt::format("#{}", s.value);
    const int v = std::abs(s.value);
    return fmt::format("{}{}.{:02}", s.value < 0 ? '-' : '+', v / 100, v % 100);
}

std::string nps_text(std::uint64_t nps) {
    if (nps >= 1'000'000) return fmt::format("{:.2f} Mn/s", static_cast<double>(nps) / 1e6);
    if (nps >= 1'000) return fmt::format("{} kn/s", nps / 1000);
    return fmt::format("{} n/s", nps);
}

std::string bytes_text(std::uint64_t bytes) {
    if (bytes >= (1ULL << 30))
        return fmt::format("{:.1f} GiB", static_cast<double>(bytes) / double(1ULL << 30));
    return fmt::format("{} MiB", bytes >> 20);
}

std::string player_html(const StatusPlayer& p, bool you = false) {
    std::string out;
    if (!p.title.empty() && !you) out += R"(<span class="title">)" + esc(p.title, 8) + "</span>";
    out += R"(<span class="name">)" + esc(p.name, 30) + "</span>";
    if (you) out += R"(<span class="you">us</span>)";
    if (p.rating)
        out += fmt::format(R"( <span class="rating">{}{}</span>)", *p.rating,
                           p.provisional ? "?" : "");
    return out;
}

// The FEN's side to move.
bool white_to_move(std::string_view fen) {
    const auto space = fen.find(' ');
    return space == std::string_view::npos || space + 1 >= fen.size() || fen[space + 1] != 'b';
}

// Three-check's "+1+0" at the FEN's end: the checks each side has given.
std::string checks_text(std::string_view fen) {
    const auto plus = fen.rfind(" +");
    if (plus == std::string_view::npos) return {};
    const std::string_view counts = fen.substr(plus + 2);
    const auto second = counts.find('+');
    if (second == std::string_view::npos) return {};
    return fmt::format(" · checks {}–{}", esc(counts.substr(0, second), 2),
                       esc(counts.substr(second + 1), 2));
}

void render_side(std::string& out, const GameStatus& g, bool white, WallTime now) {
    const bool turn = white_to_move(g.fen) == white;
    const bool ours = g.we_play_white == white;
    out += R"(<div class="side"><span class="who">)";
    out += player_html(white ? g.white : g.black, ours);
    out += "</span>";
    if (g.real_time) {
        std::int64_t ms = white ? g.white_ms : g.black_ms;
        const bool running = turn && g.clock_running;
        if (running)
            ms -= std::chrono::duration_cast<std::chrono::milliseconds>(now - g.clocks_at).count();
        std::string cls = "clock";
        if (turn) cls += " turn";
        if (running) cls += " run";
        if (ms < 10000) cls += " low";
        out += fmt::format(R"(<span class="{}" data-ms="{}">{}</span>)", cls,
                           std::max<std::int64_t>(ms, 0), shown_clock(ms));
    }
    out += "</div>";
}

void render_game(std::string& out, const GameStatus& g, const StatusSnapshot& s) {
    out += fmt::format(R"(<article class="game" data-game="{}">)", esc(g.id, 16));
    render_side(out, g, !g.we_play_white, s.now);  // the opponent at the top
    out += board_svg(g.fen, g.last_move, g.we_play_white);
    render_side(out, g, g.we_play_white, s.now);

    out += R"(<p class="facts">)";
    out += esc(g.speed.empty() ? std::string("game") : g.speed, 16);
    if (!g.time_control.empty()) out += " " + esc(g.time_control, 16);
    out += g.rated ? " · rated" : " · casual";
    out += " · <span class=\"variant\">" + esc(g.variant_name, 24) + "</span>";
    out += fmt::format(" · move {}", g.plies / 2 + 1);
    if (engine::from_lichess_key(g.variant_key) == engine::Variant::THREE_CHECK)
        out += checks_text(g.fen);
    if (g.level) out += fmt::format(R"( · <span class="level">level {}</span>)", *g.level);
    out += "</p>";

    out += R"(<p class="think">)";
    if (const auto& m = g.our_last_move) {
        const char* source = to_string(m->source);
        out += fmt::format(R"(<span class="src {0}">{0}</span>)", source);
        if (m->score) {
            const bool up = m->score->value > 0;
            out += fmt::format(R"(<b class="score {}">{}</b>)", up ? "up" : "down",
                               score_text(*m->score));
        }
        if (m->think_ms > 0)
            out += fmt::format(" · {:.1f} s", static_cast<double>(m->think_ms) / 1000.0);
        if (m->depth > 0 || m->nps > 0) {
            out += R"(</p><p class="think">)";
            if (m->depth > 0) out += fmt::format("depth {}", m->depth);
            if (m->depth > 0 && m->nps > 0) out += " · ";
            if (m->nps > 0) out += nps_text(m->nps);
        }
    } else {
        out += R"(<span class="mute">no move of ours yet</span>)";
    }
    out += "</p>";

    out += fmt::format(R"(<p class="links"><a href="{}/{}" rel="noreferrer">{} on Lichess</a></p>)",
                       site_of(s), path_segment(g.id), esc(g.id, 16));
    out += "</article>";
}

void render_header(std::string& out, const StatusSnapshot& s) {
    out += "<header><h1>" + esc(s.account, 30) + "</h1>";
    if (s.event_stream_connected) {
        out += R"(<span class="pill ok" id="lichess">Lichess connected</span>)";
    } else {
        out += R"(<span class="pill bad" id="lichess">Lichess not connected</span>)";
    }
    if (s.health_problem) {
        out += R"(<span class="pill bad" id="healthz">/healthz: )" + esc(*s.health_problem, 80) +
               "</span>";
    } else {
        out += R"(<span class="pill ok" id="healthz">/healthz: ok</span>)";
    }
    if (s.bot_games_paused_until)
        out += R"(<span class="pill warn">bot games paused until )" +
               time_of_day(*s.bot_games_paused_until) + " UTC</span>";
    out +=
        R"(<span class="meta">outpost )" + esc(s.version, 24) + " · up " + duration_text(s.uptime);
    if (s.last_event_age)
        out += fmt::format(" · last byte from Lichess {} s ago", s.last_event_age->count());
    if (s.resident_bytes) out += " · memory " + bytes_text(*s.resident_bytes);
    out += "</span></header>";
}

void render_games(std::string& out, const StatusSnapshot& s) {
    out += fmt::format(R"(<section><h2>Games in progress <span class="n">{}</span></h2>)",
                       s.games.size());
    if (s.games.empty()) {
        out += R"(<p class="empty">No game in progress.</p>)";
    } else {
        out += R"(<div class="games">)";
        for (const GameStatus& g : s.games) render_game(out, g, s);
        out += "</div>";
    }
    out += "</section>";
}

void render_queue(std::string& out, const StatusSnapshot& s) {
    constexpr std::size_t kShown = 10;
    const SlotsStatus& q = s.slots;
    out += R"(<div class="panel" id="queue"><h2>Challenges</h2>)";
    out +=
        fmt::format(R"(<p><span class="big">{}<span class="mute">/{}</span></span> slots in use)",
                    q.active, q.limit);
    if (q.reserved > 0) out += fmt::format(", {} reserved", q.reserved);
    out += "</p>";
    if (q.correspondence_games > 0)
        out += fmt::format(R"(<p class="mute">{} correspondence game{}</p>)",
                           q.correspondence_games, q.correspondence_games == 1 ? "" : "s");
    if (q.queued.empty()) {
        out += R"(<p class="empty">No challenge waiting.</p>)";
    } else {
        out += fmt::format("<p>{} waiting:</p><ol>", q.queued.size());
        for (std::size_t i = 0; i < q.queued.size() && i < kShown; ++i)
            out += "<li>" + esc(q.queued[i], 30) + "</li>";
        out += "</ol>";
        if (q.queued.size() > kShown)
            out += fmt::format(R"(<p class="mute">and {} more</p>)", q.queued.size() - kShown);
    }
    out += "</div>";
}

void render_today(std::string& out, const StatusSnapshot& s) {
    const DayResults& d = s.today;
    out += R"(<div class="panel" id="today"><h2>Today (UTC)</h2>)";
    out += fmt::format(R"(<p class="big"><span class="w">{}</span> / <span class="d">{}</span> / )"
                       R"(<span class="l">{}</span></p><p class="mute">wins / draws / losses)",
                       d.wins, d.draws, d.losses);
    if (d.aborted > 0) out += fmt::format(", {} aborted", d.aborted);
    out += "</p></div>";
}

void render_online(std::string& out, const StatusSnapshot& s) {
    out += R"(<div class="panel" id="online"><h2>Online sources</h2>)";
    bool any = false;
    for (const OnlineSourceStatus& o : s.online) any = any || o.enabled;
    if (!any) {
        out += R"(<p class="empty">None enabled (online_moves).</p></div>)";
        return;
    }
    out += R"(<table class="src-table"><tr><th>source</th><th>state</th><th>hits</th></tr>)";
    for (const OnlineSourceStatus& o : s.online) {
        if (!o.enabled) continue;
        out += fmt::format("<tr><td>{}</td><td>", o.name);
        if (o.paused_until)
            out += R"(<span class="pill warn" title="until )" + time_of_day(*o.paused_until) +
                   R"( UTC">paused, )" + left_text(*o.paused_until - s.now) + "</span>";
        else
            out += R"(<span class="pill ok">answering</span>)";
        out += fmt::format("</td><td>{}</td></tr>", o.hits);
    }
    out += "</table></div>";
}

void render_arenas(std::string& out, const StatusSnapshot& s) {
    out += R"(<div class="panel" id="arenas"><h2>Arenas</h2>)";
    if (s.arenas.empty()) {
        out += R"(<p class="empty">None joined.</p>)";
    } else {
        out += "<ol>";
        for (const ArenaStatus& a : s.arenas) {
            out += fmt::format(R"(<li><a href="{}/tournament/{}" rel="noreferrer">{}</a> )"
                               R"(<span class="mute">{}</span></li>)",
                               site_of(s), path_segment(a.id), esc(a.name, 60),
                               a.ends_at ? "ends " + when_text(*a.ends_at, s.now) + " UTC"
                                         : std::string("end not known yet"));
        }
        out += "</ol>";
    }
    out += "</div>";
}

void render_finished(std::string& out, const StatusSnapshot& s) {
    out += R"(<section id="finished"><h2>Last games</h2>)";
    if (s.finished.empty()) {
        out += R"(<p class="empty">No game finished since the start.</p></section>)";
        return;
    }
    out +=
        "<table><tr><th>result</th><th>opponent</th><th>ended by</th><th>speed</th>"
        "<th>when (UTC)</th><th></th></tr>";
    for (const FinishedGameStatus& f : s.finished) {
        const char* result = to_string(f.result);
        out +=
            fmt::format(R"(<tr><td><span class="res {0}">{0}</span></td><td class="opp">)", result);
        out += player_html(f.opponent);
        out += fmt::format(" <span class=\"mute\">({})</span>",
                           f.we_played_white ? "we: white" : "we: black");
        out += "</td><td>" + esc(f.status, 20) + "</td><td>" + esc(f.speed, 16) + "</td><td>" +
               when_text(f.ended_at, s.now) + "</td><td>";
        out += fmt::format(R"(<a href="{}/{}" rel="noreferrer">game</a>)", site_of(s),
                           path_segment(f.id));
        // The link names the game only: where the file lies on the server is not the page's
        // to show (the README: no setting shows a path).
        if (!f.pgn_path.empty() && f.id.size() <= kMaxLinkedIdChars)
            out += fmt::format(R"( · <a href="/pgn/{}">PGN</a>)", path_segment(f.id));
        out += "</td></tr>";
    }
    out += "</table></section>";
}

}  // namespace

std::string render_status_page(const StatusSnapshot& s) {
    std::string out;
    out.reserve(8192 + s.games.size() * 4096);
    out += R"(<!doctype html><html lang="en"><head><meta charset="utf-8">)"
           R"(<meta name="viewport" content="width=device-width,initial-scale=1">)";
    out += "<title>" + esc(s.account, 30) + " · outpost</title>";
    out += R"(<noscript><meta http-equiv="refresh" content="10"></noscript><style>)";
    out += kStyle;
    out += "</style></head><body>";
    out += board_svg_defs();
    out += R"(<main id="live">)";
    render_header(out, s);
    render_games(out, s);
    out += R"(<section><div class="panels">)";
    render_queue(out, s);
    render_today(out, s);
    render_online(out, s);
    render_arenas(out, s);
    out += "</div></section>";
    render_finished(out, s);
    out += "<footer>Updated " + time_of_day(s.now) +
           " UTC · refreshes itself every 2 s (reload without JavaScript) · "
           R"(<a href="/metrics">/metrics</a> · <a href="/healthz">/healthz</a></footer>)";
    out += "</main><script>";
    out += kStatusPageScript;
    out += "</script></body></html>";
    return out;
}

}  // namespace service
