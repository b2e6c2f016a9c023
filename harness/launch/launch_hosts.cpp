// The hosts a launcher command names (launch_hosts.hpp).
#include "harness/launch/launch_hosts.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>

namespace comops {
namespace {

// "host:4" -> "host"; white space around it dropped.
std::string host_of_entry(const std::string& entry) {
  std::istringstream words(entry.substr(0, entry.find(':')));
  std::string host;
  words >> host;
  return host;
}

void add(std::vector<std::string>& hosts, const std::string& host) {
  if (!host.empty() && std::find(hosts.begin(), hosts.end(), host) == hosts.end())
    hosts.push_back(host);
}

bool is_option(const std::string& word, const char* name) {
  return word == std::string("-") + name || word == std::string("--") + name;
}

}  // namespace

std::vector<std::string> launcher_hosts(const std::vector<std::string>& words) {
  std::vector<std::string> hosts;
  for (std::size_t i = 1; i + 1 < words.size(); ++i) {
    const std::string& w = words[i];
    const std::string& value = words[i + 1];
    if (is_option(w, "f") || is_option(w, "hostfile") || is_option(w, "machinefile")) {
      std::ifstream in(value);
      for (std::string line; std::getline(in, line);)
        add(hosts, host_of_entry(line.substr(0, line.find('#'))));
    } else if (is_option(w, "hosts") || is_option(w, "host")) {
      std::stringstream list(value);
      for (std::string entry; std::getline(list, entry, ',');) add(hosts, host_of_entry(entry));
    }
  }
  return hosts;
}

}  // namespace comops
