# `cmake -DGRAPH=<file> -DSOURCE_DIR=<repo> -DFOLDERS=<a;b;...> -P check_unity_sources.cmake`:
# the .cpp files of the targets whose folders are in FOLDERS (relative to SOURCE_DIR) stand alone
# in a unity batch, where CMake pastes the files of one target into one translation unit:
#  - no `using` and no namespace alias at namespace scope (a using-declaration, -directive or
#    alias there is seen by every file after it in the batch); Outpost's style does not indent
#    namespace bodies, so such a line starts with it. One exception: `using namespace
#    std::chrono_literals;`, which only adds the standard's suffixes (10s, 250ms) and so cannot
#    change what another file's code means;
#  - no two files of one target define the same name in their anonymous namespaces (the batch
#    makes them one namespace: the build breaks, or one file quietly calls the other's helper).
# GRAPH is the file tests/CMakeLists.txt writes (see library_graph.cmake).
cmake_minimum_required(VERSION 3.25)

include(${CMAKE_CURRENT_LIST_DIR}/library_graph.cmake)
set(all_targets ${targets})
set(targets "")
foreach(t IN LISTS all_targets)
    foreach(folder IN LISTS FOLDERS)
        if(dir_of_${t} STREQUAL "${SOURCE_DIR}/${folder}")
            list(APPEND targets ${t})
        endif()
    endforeach()
endforeach()

set(id "[A-Za-z_][A-Za-z0-9_]*")
set(problems "")
set(files_checked 0)
foreach(t IN LISTS targets)
    set(names "")
    foreach(file IN LISTS sources_of_${t})
        if(NOT file MATCHES "\\.cpp$" OR file IN_LIST alone_in_${t})
            continue()
        endif()
        math(EXPR files_checked "${files_checked} + 1")
        file(RELATIVE_PATH rel "${SOURCE_DIR}" "${file}")
        file(STRINGS "${file}" text)
        set(in_anonymous FALSE)
        set(number 0)
        foreach(line IN LISTS text)
            math(EXPR number "${number} + 1")
            if((line MATCHES "^using " AND NOT line STREQUAL "using namespace std::chrono_literals;")
               OR line MATCHES "^namespace ${id} =")
                list(APPEND problems "  ${rel}:${number}: at namespace scope: ${line}")
            endif()
            if(line STREQUAL "namespace {")
                set(in_anonymous TRUE)
                continue()
            elseif(in_anonymous AND line MATCHES "^}")
                set(in_anonymous FALSE)
                continue()
            endif()
            if(NOT in_anonymous OR NOT line MATCHES "^[A-Za-z_]")
                continue()
            endif()
            # What a line at the anonymous namespace's top level defines.
            set(defined "")
            if(line MATCHES "^(struct|class|enum class|enum|union) (${id})")
                set(defined "${CMAKE_MATCH_2}")
            elseif(line MATCHES "^(inline |static )*(constexpr|const) [^=;{(]*[^A-Za-z0-9_](${id})(\\[[^]]*\\])? *[={]")
                set(defined "${CMAKE_MATCH_3}")
            elseif(line MATCHES "^[A-Za-z_][^(=;]*[^A-Za-z0-9_:](${id})\\(")
                set(defined "${CMAKE_MATCH_1}")
            endif()
            if(NOT defined OR defined MATCHES "^(operator|if|for|while|switch|return)$")
                continue()
            endif()
            if(DEFINED where_${t}_${defined} AND NOT where_${t}_${defined} STREQUAL rel)
                list(APPEND problems
                     "  ${t}: '${defined}' in the anonymous namespaces of ${where_${t}_${defined}} and ${rel}")
            endif()
            set(where_${t}_${defined} "${rel}")
        endforeach()
    endforeach()
endforeach()

if(problems)
    list(REMOVE_DUPLICATES problems)
    list(JOIN problems "\n" problems)
    message(FATAL_ERROR "sources that do not stand alone in a unity batch (move the using into "
                        "the function or class that needs it; rename one of the two names):\n"
                        "${problems}")
endif()
list(LENGTH targets count)
message(STATUS "${files_checked} .cpp files of ${count} targets stand alone in unity batches")
