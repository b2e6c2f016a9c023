// Result files: atomic replacement without leftovers, links kept, devices and FIFOs written into
// and never replaced, directories refused, each failure one message naming the path.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include "comops/op.hpp"
#include "harness/util/output_file.hpp"
#include "temp_dir.hpp"

namespace comops {
namespace {

namespace fs = std::filesystem;
using comops_test::read_text;
using comops_test::TempDir;

std::string error_of(const std::function<void()>& fn) {
  try {
    fn();
  } catch (const RuntimeError& e) {
    return e.what();
  }
  return "no RuntimeError";
}

bool is_fifo(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISFIFO(st.st_mode);
}

TEST(WriteFileAtomically, ReplacesTheFileAndLeavesNoTemporary) {
  TempDir dir;
  write_file_atomically(dir.file("a.txt"), "one\n");
  write_file_atomically(dir.file("a.txt"), "two\n");
  EXPECT_EQ(read_text(dir.file("a.txt")), "two\n");
  EXPECT_EQ(dir.names(), std::vector<std::string>{"a.txt"});
}

TEST(WriteFileAtomically, FailureNamesThePathAndTheReason) {
  EXPECT_EQ(error_of([] { write_file_atomically("/nonexistent-dir/a.txt", "x"); }),
            "cannot write /nonexistent-dir/a.txt: No such file or directory");
  TempDir dir;
  EXPECT_EQ(error_of([&] { write_file_atomically(dir.path().string(), "x"); }),
            "cannot write " + dir.path().string() + ": Is a directory");
  EXPECT_EQ(error_of([] { write_file_atomically("/dev/null", "x"); }),
            "cannot write /dev/null: not a regular file, and it is replaced only as a whole");
}

TEST(WriteFileAtomically, FollowsASymbolicLinkAndKeepsIt) {
  TempDir dir;
  std::ofstream(dir.file("real.txt")) << "old\n";
  fs::create_symlink("real.txt", dir.file("link.txt"));
  write_file_atomically(dir.file("link.txt"), "new\n");
  EXPECT_TRUE(fs::is_symlink(dir.file("link.txt")));
  EXPECT_EQ(read_text(dir.file("real.txt")), "new\n");
  EXPECT_EQ(dir.names(), (std::vector<std::string>{"link.txt", "real.txt"}));
}

TEST(DocumentFile, RegularFileHoldsTheLatestDocumentAfterEachUpdate) {
  TempDir dir;
  DocumentFile f(dir.file("d.json"));
  f.update("1\n");
  EXPECT_EQ(read_text(dir.file("d.json")), "1\n");
  f.update("2\n");
  EXPECT_EQ(read_text(dir.file("d.json")), "2\n");
  f.finish();
  EXPECT_EQ(read_text(dir.file("d.json")), "2\n");
}

TEST(DocumentFile, FifoGetsOnlyTheLastDocumentOnceAtFinish) {
  TempDir dir;
  const std::string fifo = dir.file("fifo");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  DocumentFile f(fifo);
  f.update("first\n");  // would block without a reader if it were written now
  f.update("second\n");
  std::string got;
  std::thread reader([&] { got = read_text(fifo); });
  f.finish();
  f.finish();  // a second finish writes nothing more
  reader.join();
  EXPECT_EQ(got, "second\n");
  EXPECT_TRUE(is_fifo(fifo));
}

TEST(DocumentFile, DirectoryIsRefusedAtOnce) {
  TempDir dir;
  EXPECT_EQ(error_of([&] { DocumentFile f(dir.path().string()); }),
            "cannot write " + dir.path().string() + ": Is a directory");
}

TEST(StreamFile, TruncatesARegularFileAndAppendsInOrder) {
  TempDir dir;
  std::ofstream(dir.file("s.csv")) << "stale content\n";
  StreamFile s(dir.file("s.csv"));
  EXPECT_EQ(read_text(dir.file("s.csv")), "");
  s.write("a\n");
  s.write("b\n");
  EXPECT_EQ(read_text(dir.file("s.csv")), "a\nb\n");
}

TEST(StreamFile, WritesIntoAFifoWithoutReplacingIt) {
  TempDir dir;
  const std::string fifo = dir.file("fifo");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::string got;
  std::thread reader([&] { got = read_text(fifo); });
  {
    StreamFile s(fifo);
    s.write("x,y\n");
    s.write("1,2\n");
  }
  reader.join();
  EXPECT_EQ(got, "x,y\n1,2\n");
  EXPECT_TRUE(is_fifo(fifo));
}

TEST(StreamFile, FullDeviceFailsOnTheWriteWithTheReason) {
  StreamFile s("/dev/full");
  EXPECT_EQ(error_of([&] { s.write("row\n"); }), "cannot write /dev/full: No space left on device");
}

}  // namespace
}  // namespace comops
