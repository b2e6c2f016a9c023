// Reading a whole small text file (a /proc file, a rank table, a job's output) into a string.
#pragma once

#include <filesystem>
#include <string>

namespace comops {

/// The whole text of the file at `path`; "" when it cannot be read.
std::string read_text_file(const std::filesystem::path& path);

}  // namespace comops
