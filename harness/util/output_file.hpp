// The files comops writes its results into: a document rewritten whole after every row (JSON,
// Google Benchmark JSON, the tables) and a stream appended row by row (CSV). A regular file is
// replaced atomically; a path that is not a regular file (a character device such as /dev/stdout,
// a FIFO) is written into and never replaced; a symbolic link is followed and kept.
#pragma once

#include <string>

namespace comops {

/// Writes text to path through a temporary file beside it and a rename, so a reader never sees
/// half a file; the temporary is removed when anything fails. A symbolic link is followed (the
/// link stays). Throws RuntimeError "cannot write PATH: REASON".
void write_file_atomically(const std::string& path, const std::string& text);

/// Writes text to stdout and flushes it. Throws RuntimeError "cannot write to stdout: REASON"
/// (a full disk, a closed pipe), so a lost line is a run-time failure like a lost file.
void write_stdout(const std::string& text);

/// A whole document kept up to date on disk. At a regular (or new) path every update() replaces
/// the file atomically, so the file always holds the latest complete document. At a path that is
/// not a regular file (a character device, a FIFO) the document is written once, by finish(),
/// since a stream cannot be rewritten. A directory is refused. Errors throw RuntimeError.
class DocumentFile {
 public:
  explicit DocumentFile(std::string path);
  void update(const std::string& text);
  /// Writes the last document into a non-regular target; a no-op for a regular file.
  void finish();
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  bool stream_ = false;
  bool finished_ = false;
  std::string pending_;
};

/// A file written in order and flushed after every piece: a regular path is truncated first, a
/// non-regular one (a device, a FIFO) is opened for writing as it is. A directory is refused.
class StreamFile {
 public:
  explicit StreamFile(std::string path);
  ~StreamFile();
  StreamFile(const StreamFile&) = delete;
  StreamFile& operator=(const StreamFile&) = delete;
  void write(const std::string& text);
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  int fd_ = -1;
};

}  // namespace comops
