# Tests of the metrics rendering and the health endpoint (a loopback HTTP client in the test).
find_package(Boost 1.74 REQUIRED)

outpost_add_gtest(health_server_test
    SOURCES ${CMAKE_CURRENT_LIST_DIR}/health_server_test.cpp ${CMAKE_CURRENT_LIST_DIR}/metrics_test.cpp
    LIBS outpost_service_health outpost_test_support Boost::headers
    LABELS service
    TIMEOUT 120)
# metrics_test.cpp checks /metrics against the table in docs/OPERATIONS.md.
target_compile_definitions(health_server_test PRIVATE OUTPOST_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
