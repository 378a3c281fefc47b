# `cmake -DGRAPH=<file> -DSOURCE_DIR=<repo> -DBINARY_DIR=<build> -P check_unity_sources.cmake`:
# every .cpp file of the tree stands alone in a unity batch, where CMake pastes the files of one
# target into one translation unit. Nothing may depend on the batches (the release and sanitize
# presets build them, the debug preset compiles each file alone), so:
#  - no using-directive or using-declaration (`using namespace x;`, `using x::name;`) at
#    namespace scope where another file could see it: it would be seen by every file after it
#    in the batch that opens the same namespace or one inside it. Put it in the function that
#    needs it, or qualify the names; a namespace that no other source or header of the tree
#    opens (a table's own block, say) may hold one. Outpost's style does not indent namespace
#    bodies, so such a line starts with `using`, and clang-format closes every namespace longer
#    than one line with `}  // namespace`;
#  - no two files of one target define the same name in their anonymous namespaces, or as a
#    `static` or an alias (`using Clock = ...;`, `namespace fs = ...;`) at namespace scope: the
#    batch makes them one namespace, and the build breaks or one file quietly calls the other's
#    helper. The same alias word for word in two files is one declaration made twice, which C++
#    allows. Files CMake never batches (SKIP_UNITY_BUILD_INCLUSION) are held to the first rule.
# GRAPH is the file tests/CMakeLists.txt writes (see library_graph.cmake). The .cpp files under
# the targets' top folders that no target of this build lists (the fuzz targets of another
# preset) are held to the first rule as if they were one target; the files the build generates
# (under BINARY_DIR) are not ours.
cmake_minimum_required(VERSION 3.25)

include(${CMAKE_CURRENT_LIST_DIR}/library_graph.cmake)

set(id "[A-Za-z_][A-Za-z0-9_]*")
# A file's lines as a list: CMake's lists treat `[`, `]`, `\` and `;` specially, so the first
# three become characters no source holds and `;` is escaped.
string(ASCII 1 open_bracket)
string(ASCII 2 close_bracket)
string(ASCII 3 backslash)
set(problems "")
set(usings "")  # target|namespace|where: each namespace-scope using, judged once all are read

# Reads one file of target `t`: the namespaces it opens (every prefix of each: a using in `a`
# is seen in `a::b` too), and unless it is a header (`mode`: batched, alone or header), its
# usings and, when batched, the names only it should define.
macro(read_source t file rel mode)
    file(READ "${file}" text)
    string(REPLACE "\\" "${backslash}" text "${text}")
    string(REPLACE "[" "${open_bracket}" text "${text}")
    string(REPLACE "]" "${close_bracket}" text "${text}")
    string(REPLACE ";" "\\;" text "${text}")
    string(REPLACE "\n" ";" text "${text}")
    set(stack "")  # the open namespaces, innermost last; "-" is an anonymous one
    set(opened_on "")
    set(number 0)
    foreach(line IN LISTS text)
        math(EXPR number "${number} + 1")
        if(line MATCHES "^(inline )?namespace( ${id}(::${id})*)? *{")
            string(STRIP "${CMAKE_MATCH_2}" name)
            string(REPLACE "::" "." name "${name}")
            if(name STREQUAL "")
                set(name "-")
            endif()
            list(APPEND stack "${name}")
            list(APPEND opened_on ${number})
            list(JOIN stack "." path)
            string(REPLACE "." ";" parts "${path}")
            set(prefix "")
            foreach(part IN LISTS parts)
                string(APPEND prefix ".${part}")
                list(APPEND opens${prefix} "${rel}")
            endforeach()
            continue()
        endif()
        if(stack AND line MATCHES "^}")
            list(GET opened_on -1 opened)
            math(EXPR body "${number} - ${opened}")
            if(line MATCHES "^}  // namespace" OR body LESS_EQUAL 2)  # or one short line long
                list(POP_BACK stack)
                list(POP_BACK opened_on)
                continue()
            endif()
        endif()
        list(JOIN stack "." path)
        if(path)
            set(path ".${path}")
        endif()
        if("${mode}" STREQUAL "header")
            continue()
        endif()
        if(line MATCHES "^using " AND NOT line MATCHES "^using ${id} =")
            string(REPLACE ";" "" shown "${line}")
            list(APPEND usings "${t}|${path}|${rel}:${number}: ${shown}")
        endif()
        if(NOT "${mode}" STREQUAL "batched")
            continue()
        endif()
        # What a line defines that only its own file should see.
        set(defined "")
        if(line MATCHES "^(using|namespace) (${id}) =")
            set(defined "${CMAKE_MATCH_2}")
            if(DEFINED where_${t}_${defined}
               AND "${line}" STREQUAL "${alias_${t}_${defined}_${where_${t}_${defined}}}")
                continue()  # the same alias again
            endif()
            set(alias_${t}_${defined}_${rel} "${line}")
        elseif(NOT line MATCHES "^[A-Za-z_]" OR NOT (path MATCHES "\\.-" OR line MATCHES "^static "))
            continue()
        elseif(line MATCHES "^(struct|class|enum class|enum|union) (${id})")
            set(defined "${CMAKE_MATCH_2}")
        elseif(line MATCHES "^(inline |static )*(constexpr|const) [^=;{(]*[^A-Za-z0-9_](${id})(${open_bracket}[^${close_bracket}]*${close_bracket})? *[={]")
            set(defined "${CMAKE_MATCH_3}")
        elseif(line MATCHES "^[A-Za-z_][^(=;]*[^A-Za-z0-9_:](${id})\\(")
            set(defined "${CMAKE_MATCH_1}")
        endif()
        # PrintTo is GoogleTest's printer, overloaded for each file's own parameter type.
        if(NOT defined OR defined MATCHES "^(operator|if|for|while|switch|return|PrintTo)$")
            continue()
        endif()
        if(DEFINED where_${t}_${defined} AND NOT where_${t}_${defined} STREQUAL rel)
            list(APPEND problems
                 "  ${t}: '${defined}' is its own name in ${where_${t}_${defined}} and ${rel}")
        endif()
        set(where_${t}_${defined} "${rel}")
    endforeach()
endmacro()

set(listed "")
set(top_folders "")
set(targets_checked 0)
foreach(t IN LISTS targets)
    if(NOT dir_of_${t} MATCHES "^${SOURCE_DIR}/([^/]+)")
        continue()
    endif()
    list(APPEND top_folders "${SOURCE_DIR}/${CMAKE_MATCH_1}")
    math(EXPR targets_checked "${targets_checked} + 1")
    foreach(file IN LISTS sources_of_${t})
        if(NOT file MATCHES "\\.cpp$" OR file MATCHES "^${BINARY_DIR}/")
            continue()
        endif()
        list(APPEND listed "${file}")
        set(mode batched)
        if(file IN_LIST alone_in_${t})
            set(mode alone)
        endif()
        file(RELATIVE_PATH rel "${SOURCE_DIR}" "${file}")
        read_source(${t} "${file}" "${rel}" ${mode})
    endforeach()
endforeach()
list(REMOVE_DUPLICATES top_folders)
list(TRANSFORM top_folders APPEND "/*.cpp" OUTPUT_VARIABLE sources_on_disk)
list(TRANSFORM top_folders APPEND "/*.hpp" OUTPUT_VARIABLE headers_on_disk)
file(GLOB_RECURSE on_disk LIST_DIRECTORIES false ${sources_on_disk})
file(GLOB_RECURSE headers LIST_DIRECTORIES false ${headers_on_disk})
foreach(file IN LISTS on_disk headers)
    if(file IN_LIST listed OR file MATCHES "^${BINARY_DIR}/")
        continue()
    endif()
    file(RELATIVE_PATH rel "${SOURCE_DIR}" "${file}")
    if(file MATCHES "\\.hpp$")
        read_source(headers "${file}" "${rel}" header)
    else()
        list(APPEND listed "${file}")
        read_source(unlisted "${file}" "${rel}" alone)
    endif()
endforeach()

# A using at namespace scope stands alone only in a namespace of its file's own, one that no
# other source or header of the tree opens.
foreach(using IN LISTS usings)
    string(REGEX MATCH "^([^|]*)\\|([^|]*)\\|(([^:]*):.*)$" parsed "${using}")
    set(t "${CMAKE_MATCH_1}")
    set(path "${CMAKE_MATCH_2}")
    set(where "${CMAKE_MATCH_3}")
    set(rel "${CMAKE_MATCH_4}")
    set(others "${opens${path}}")
    list(REMOVE_ITEM others "${rel}")
    if(path STREQUAL "" OR others)
        list(APPEND problems "  ${where}")
    endif()
endforeach()

if(problems)
    list(REMOVE_DUPLICATES problems)
    list(JOIN problems "\n" problems)
    message(FATAL_ERROR "sources that do not stand alone in a unity batch (move each using into "
                        "the function that needs it or qualify the names, and rename one of "
                        "two names):\n${problems}")
endif()
list(LENGTH listed files_checked)
if(files_checked EQUAL 0)
    message(FATAL_ERROR "no .cpp file under ${SOURCE_DIR} in ${GRAPH}")
endif()
message(STATUS "${files_checked} .cpp files of ${targets_checked} targets stand alone in unity batches")
