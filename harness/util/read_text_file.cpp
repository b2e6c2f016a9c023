// Reading a whole small text file (read_text_file.hpp).
#include "harness/util/read_text_file.hpp"

#include <fstream>
#include <sstream>

namespace comops {

std::string read_text_file(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace comops
