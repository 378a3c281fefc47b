// The metrics docs/OPERATIONS.md documents for operators: its table under "What `/metrics`
// reports", read as the tests that hold the exporter and the Grafana dashboard to it need it.
#pragma once

#include <map>
#include <string>

namespace test_support {

// Each metric of the table by full name (the `outpost_` prefix added, labels dropped) and its
// type from the second column ("counter, gauge" gives the row's names their types in order; one
// type covers every name of its row; "?" when the counts differ). Empty if the file cannot be read.
[[nodiscard]] std::map<std::string, std::string> documented_metrics(
    const std::string& operations_md_path);

}  // namespace test_support
