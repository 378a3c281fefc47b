# `cmake -DWORK=<empty folder> -P check_unity_sources_test.cmake`: check_unity_sources.cmake
# finds what is planted in a small tree of its own (and only that), and passes a clean one.
cmake_minimum_required(VERSION 3.25)

set(check ${CMAKE_CURRENT_LIST_DIR}/check_unity_sources.cmake)
set(tree ${WORK}/tree)
file(REMOVE_RECURSE ${WORK})

# Target `lib`: a.cpp, b.cpp and c.cpp in one batch, alone.cpp never batched; tool.cpp no
# target lists (a fuzz target of another preset, say); shared.hpp opens `demo::shared`.
file(WRITE ${tree}/lib/a.cpp [=[
#include <chrono>
namespace demo {
using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;
namespace fs = std::filesystem;
}  // namespace demo
]=])
file(WRITE ${tree}/lib/b.cpp [=[
// "[[[" and a macro on two lines: neither may hide the lines after them from the check.
#define TWICE(x) \
    ((x) * 2)
namespace demo {
namespace {
int helper() { return 1; }
int exported() { return 0; }
}  // namespace
using Clock = std::chrono::system_clock;
namespace fs = std::filesystem;
using std::swap;
}  // namespace demo
]=])
file(WRITE ${tree}/lib/c.cpp [=[
namespace demo {
namespace {
const char* const kName = "c";
}
int exported() { return 1; }  // not in the anonymous namespace: that one closed
namespace {
int first() {
    return 2;
}
int helper() { return 3; }
}  // namespace
namespace c_table {
using namespace std::chrono_literals;
}  // namespace c_table
namespace shared {
using std::size_t;
}  // namespace shared
}  // namespace demo
]=])
file(WRITE ${tree}/lib/alone.cpp [=[
namespace demo {
namespace {
int helper() { return 4; }
}  // namespace
using std::string;
}  // namespace demo
]=])
file(WRITE ${tree}/lib/shared.hpp [=[
namespace demo::shared {
using std::size_t;  // a header's own business: the check reads headers for their namespaces
int answer();
}  // namespace demo::shared
]=])
file(WRITE ${tree}/tools/tool.cpp [=[
using namespace demo;
]=])
macro(write_graph sources)
    set(graph "target lib ${tree}/lib\n")
    foreach(source ${sources})
        string(APPEND graph "source lib ${tree}/lib/${source}\n")
    endforeach()
    string(APPEND graph "alone lib ${tree}/lib/alone.cpp\ntarget tool_dir_marker ${tree}/tools\n")
    file(WRITE ${WORK}/graph.txt "${graph}")
endmacro()
macro(run_check)
    execute_process(COMMAND ${CMAKE_COMMAND} -DGRAPH=${WORK}/graph.txt -DSOURCE_DIR=${tree}
                            -DBINARY_DIR=${WORK}/build -P ${check}
                    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
endmacro()

write_graph("a.cpp;b.cpp;c.cpp;alone.cpp")
run_check()
set(expected
    "lib/a.cpp:3: using namespace std::chrono_literals"  # b.cpp and c.cpp open demo too
    "'Clock' is its own name in lib/a.cpp and lib/b.cpp"  # two different aliases
    "'helper' is its own name in lib/b.cpp and lib/c.cpp"  # after another function's brace
    "lib/b.cpp:11: using std::swap"  # its line, counted past the macro's backslash
    "lib/c.cpp:16: using std::size_t"  # shared.hpp opens demo::shared
    "lib/alone.cpp:5: using std::string"  # never batched, still a using others see
    "tools/tool.cpp:1: using namespace demo")
set(unexpected "shared.hpp" "'fs'" "c_table" "alone.cpp and" "and lib/alone.cpp" "'exported'")
set(failures "")
if(rc EQUAL 0)
    list(APPEND failures "the check passed the planted tree")
endif()
foreach(text IN LISTS expected)
    string(FIND "${out}" "${text}" at)
    if(at EQUAL -1)
        list(APPEND failures "not reported: ${text}")
    endif()
endforeach()
foreach(text IN LISTS unexpected)
    string(FIND "${out}" "${text}" at)
    if(NOT at EQUAL -1)
        list(APPEND failures "reported but allowed: ${text}")
    endif()
endforeach()

# Without the planted lines the same tree passes.
file(WRITE ${tree}/lib/a.cpp "namespace demo {\nnamespace fs = std::filesystem;\n}  // namespace demo\n")
file(WRITE ${tree}/tools/tool.cpp "int main() { return 0; }\n")
file(WRITE ${tree}/lib/alone.cpp "namespace demo {\nint helper() { return 4; }\n}  // namespace demo\n")
file(REMOVE ${tree}/lib/b.cpp)
write_graph("a.cpp;c.cpp;alone.cpp")
file(WRITE ${tree}/lib/c.cpp [=[
namespace demo {
namespace {
int helper() { return 3; }
}  // namespace
namespace c_table {
using namespace std::chrono_literals;
}  // namespace c_table
}  // namespace demo
]=])
set(planted_out "${out}")
run_check()
if(NOT rc EQUAL 0)
    list(APPEND failures "the clean tree failed:\n${out}")
endif()

if(failures)
    list(JOIN failures "\n  " failures)
    message(FATAL_ERROR "check_unity_sources.cmake on a planted tree:\n  ${failures}\n"
                        "its report was:\n${planted_out}")
endif()
message(STATUS "check_unity_sources.cmake reports each planted line and passes the clean tree")
