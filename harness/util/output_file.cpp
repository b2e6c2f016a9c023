// Result files: atomic replacement of regular files, in-place writes into devices and FIFOs.
#include "harness/util/output_file.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "comops/op.hpp"

namespace comops {
namespace {

enum class Target { kAbsent, kRegular, kOther };

[[noreturn]] void fail(const std::string& path, int err) {
  throw RuntimeError(fmt::format("cannot write {}: {}", path, std::strerror(err)));
}

// What `path` names after following symbolic links; a directory is refused here.
Target target_of(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    if (errno == ENOENT) return Target::kAbsent;
    fail(path, errno);
  }
  if (S_ISDIR(st.st_mode)) fail(path, EISDIR);
  return S_ISREG(st.st_mode) ? Target::kRegular : Target::kOther;
}

// The path a rename must replace: for a symbolic link to a regular file, the file it finally
// names, so that the link survives (realpath also reads /proc's links such as /dev/stdout).
std::string rename_target(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_symlink(path, ec)) return path;
  const auto real = std::filesystem::canonical(path, ec);
  return ec ? path : real.string();
}

// Writes all of text; 0, or the errno of the write that failed.
int write_all(int fd, const std::string& text) {
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return n < 0 ? errno : EIO;
    done += static_cast<std::size_t>(n);
  }
  return 0;
}

// Writes into an existing non-regular file (a device, a FIFO) without replacing it.
void write_in_place(const std::string& path, const std::string& text) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) fail(path, errno);
  int err = write_all(fd, text);
  if (::close(fd) != 0 && err == 0 && errno != EINTR) err = errno;
  if (err != 0) fail(path, err);
}

}  // namespace

void write_stdout(const std::string& text) {
  errno = 0;
  const bool written = std::fwrite(text.data(), 1, text.size(), stdout) == text.size();
  if (std::fflush(stdout) != 0 || !written || std::ferror(stdout))
    throw RuntimeError(
        fmt::format("cannot write to stdout: {}", std::strerror(errno != 0 ? errno : EIO)));
}

void write_file_atomically(const std::string& path, const std::string& text) {
  if (target_of(path) == Target::kOther)
    throw RuntimeError(fmt::format(
        "cannot write {}: not a regular file, and it is replaced only as a whole", path));
  const std::string target = rename_target(path);
  const std::string tmp = fmt::format("{}.tmp.{}", target, ::getpid());
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd < 0) fail(path, errno);
  int err = write_all(fd, text);
  if (::close(fd) != 0 && err == 0) err = errno;
  if (err == 0 && std::rename(tmp.c_str(), target.c_str()) != 0) err = errno;
  if (err != 0) {
    ::unlink(tmp.c_str());
    fail(path, err);
  }
}

DocumentFile::DocumentFile(std::string path) : path_(std::move(path)) {
  stream_ = target_of(path_) == Target::kOther;
}

void DocumentFile::update(const std::string& text) {
  if (stream_)
    pending_ = text;
  else
    write_file_atomically(path_, text);
}

void DocumentFile::finish() {
  if (!stream_ || finished_) return;
  finished_ = true;
  write_in_place(path_, pending_);
}

StreamFile::StreamFile(std::string path) : path_(std::move(path)) {
  const bool regular = target_of(path_) != Target::kOther;
  fd_ = ::open(path_.c_str(), O_WRONLY | O_CLOEXEC | (regular ? O_CREAT | O_TRUNC : 0), 0666);
  if (fd_ < 0) fail(path_, errno);
}

StreamFile::~StreamFile() {
  if (fd_ >= 0) ::close(fd_);
}

void StreamFile::write(const std::string& text) {
  if (const int err = write_all(fd_, text); err != 0) fail(path_, err);
}

}  // namespace comops
