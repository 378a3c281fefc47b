# `cmake -DTESTS_DIR=<tests/> -DBUILT=<file> -P check_test_sources.cmake`: fails when a
# *_test.cpp under TESTS_DIR is not among the sources listed in BUILT (one absolute path a line,
# written by tests/CMakeLists.txt from every outpost_add_gtest call).
cmake_minimum_required(VERSION 3.25)  # IN_LIST
file(STRINGS "${BUILT}" built)
file(GLOB_RECURSE on_disk LIST_DIRECTORIES false "${TESTS_DIR}/*_test.cpp")
set(missing "")
foreach(source ${on_disk})
    if(NOT source IN_LIST built)
        file(RELATIVE_PATH relative "${TESTS_DIR}/.." "${source}")
        list(APPEND missing "  ${relative}")
    endif()
endforeach()
if(missing)
    list(JOIN missing "\n" missing)
    message(FATAL_ERROR "test sources that no suite builds (add each to an outpost_add_gtest "
                        "call in its folder's CMakeLists.txt):\n${missing}")
endif()
list(LENGTH on_disk count)
message(STATUS "all ${count} *_test.cpp files under tests/ are built")
