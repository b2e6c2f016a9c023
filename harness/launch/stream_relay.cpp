// The supervisor's relay of the launcher's output, and the ends it forces (stream_relay.hpp).
#include "harness/launch/stream_relay.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <string_view>

#include "harness/runtime/watchdog.hpp"

namespace comops {

StreamRelay::StreamRelay(int out, int err, StartupBound startup)
    : fds_{{out, POLLIN, 0}, {err, POLLIN, 0}},
      out_(out),
      err_(err),
      startup_(std::move(startup)) {}

int StreamRelay::until_exit(pid_t child) {
  int status = 0;
  for (bool exited = false; !exited;) {
    if (::poll(fds_, 2, 200) > 0)
      for (int i = 0; i < 2; ++i)
        if (fds_[i].fd >= 0 && (fds_[i].revents & (POLLIN | POLLHUP))) pass(i);
    const pid_t w = ::waitpid(child, &status, WNOHANG);
    exited = w == child || (w < 0 && errno != EINTR);
    if (exited) break;
    const auto now = Clock::now();
    check_startup(now);
    end_if_due(child, now);
  }
  return status;
}

// Past the bound without the rank table: the job is ended now.
void StreamRelay::check_startup(Clock::time_point now) {
  if (started_ || startup_.bound_s <= 0 || term_at_) return;
  std::error_code ec;
  if (std::filesystem::exists(startup_.started_file, ec)) {
    started_ = true;
    return;
  }
  const double waited = std::chrono::duration<double>(now - start_).count();
  if (waited > startup_.bound_s && waited > startup_.bound_s * load_factor()) {
    startup_waited_s_ = waited;
    term_at_ = now;
  }
}

void StreamRelay::end_if_due(pid_t child, Clock::time_point now) {
  if (!term_at_ || now < *term_at_) return;
  if (signalled_ == 0) {
    ::kill(child, SIGTERM);
    signalled_ = SIGTERM;
  } else if (signalled_ == SIGTERM && now > *term_at_ + kGrace) {
    ::kill(child, SIGKILL);
    signalled_ = SIGKILL;
  }
}

void StreamRelay::finish() {
  for (int i = 0; i < 2; ++i)
    if (fds_[i].fd >= 0) {
      ::fcntl(fds_[i].fd, F_SETFL, O_NONBLOCK);
      while (fds_[i].fd >= 0 && pass(i)) {
      }
    }
  write_err(notices_.feed(starts_.flush()) + notices_.flush());
  ::close(out_);
  ::close(err_);
}

void StreamRelay::write_err(const std::string& text) {
  if (!text.empty() && ::write(STDERR_FILENO, text.data(), text.size()) < 0) {
    // stderr is gone: nothing to report it on
  }
}

// One read from stream i (0 stdout, 1 stderr) passed on; false when nothing came.
bool StreamRelay::pass(int i) {
  char buf[4096];
  const ssize_t n = ::read(fds_[i].fd, buf, sizeof buf);
  if (n <= 0) {
    if (n == 0 || (errno != EINTR && errno != EAGAIN)) fds_[i].fd = -1;  // closed: poll skips it
    return false;
  }
  const std::string_view chunk(buf, static_cast<std::size_t>(n));
  if (i == 1) {
    write_err(notices_.feed(starts_.feed(chunk)));
    if (!term_at_ && chunk.find(kWatchdogMark) != std::string_view::npos)
      term_at_ = Clock::now() + kGrace;
  } else {
    const ssize_t w = ::write(STDOUT_FILENO, buf, static_cast<std::size_t>(n));
    if (w != n && out_error_ == 0) out_error_ = w < 0 ? errno : EIO;  // the tables are lost there
  }
  if (seen_.size() < (1u << 20)) seen_.append(chunk);
  return true;
}

}  // namespace comops
