# Writes a C++ source holding a file's bytes (an embedded NNUE net), run at build time:
#   cmake -DIN=net.nnue -DOUT=embedded_net.cpp [-DSYMBOL=outpost_embedded_net] -P embed_file.cmake
# The bytes are the array SYMBOL, their count SYMBOL_size.
# engine/CMakeLists.txt checks at configure time that IN exists; a file gone since then is an
# error here too, so no build ever links an engine without its net.
if(NOT EXISTS "${IN}")
    message(FATAL_ERROR "embed_file.cmake: no net file at ${IN}")
endif()
if(NOT SYMBOL)
    set(SYMBOL outpost_embedded_net)
endif()
file(READ "${IN}" hex HEX)
string(LENGTH "${hex}" hex_length)
math(EXPR size "${hex_length} / 2")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," body "${hex}")
# One line per 32 bytes keeps the generated file readable by editors and diff tools.
string(REGEX REPLACE "((0x..,){32})" "\\1\n" body "${body}")
file(WRITE "${OUT}.tmp"
    "// Generated from ${IN} by engine/embed_file.cmake; do not edit.\n"
    "#include <cstddef>\n"
    "extern const unsigned char ${SYMBOL}[];\n"
    "extern const std::size_t ${SYMBOL}_size;\n"
    "alignas(64) const unsigned char ${SYMBOL}[] = {\n${body}};\n"
    "const std::size_t ${SYMBOL}_size = ${size};\n")
file(COPY_FILE "${OUT}.tmp" "${OUT}" ONLY_IF_DIFFERENT)
file(REMOVE "${OUT}.tmp")
