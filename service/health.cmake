# outpost_service_health: metrics and the /healthz + /metrics HTTP endpoint (Beast stays in here).
find_package(Boost 1.74 REQUIRED)
# Debian's prometheus-cpp-dev: only its core (registry, metric types, TextSerializer) is used.
find_package(prometheus-cpp CONFIG REQUIRED)

add_library(outpost_service_health STATIC
    ${CMAKE_CURRENT_LIST_DIR}/metrics.cpp
    ${CMAKE_CURRENT_LIST_DIR}/health_server.cpp
)
# Headers are included as "service/<file>.hpp" from the repository root.
target_include_directories(outpost_service_health PUBLIC ${CMAKE_CURRENT_LIST_DIR}/..)
target_link_libraries(outpost_service_health
    PUBLIC Threads::Threads
    PRIVATE Boost::headers prometheus-cpp::core outpost_flags)
# Compiled alone in a unity build (OUTPOST_UNITY): HealthServer::Impl holds types of the file's
# anonymous namespace, which GCC's -Wsubobject-linkage accepts only in a file compiled as itself.
set_source_files_properties(${CMAKE_CURRENT_LIST_DIR}/health_server.cpp
                            PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)
