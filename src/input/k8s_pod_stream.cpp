// --pods: a JSON pod list read a piece at a time (k8s_pod_stream.h): the
// window onto the file, the scan of the list's root, and the queue between
// the thread that parses the items and the one that reads the pods.
#include "k8s_pod_stream.h"

#include <algorithm>
#include <array>
#include <condition_variable>
#include <cstring>
#include <mutex>
#include <thread>
#include <utility>

#include "json_reader.h"
#include "json_scan.h"
#include "k8s_read.h"

namespace eruplan {

namespace {

// The part of the file being read, with the line and column of a position
// in it kept up to date as reading moves on.
class PodWindow {
 public:
  // `buffers`: the window's memory, kept from file to file.
  PodWindow(ByteStream& in, std::size_t chunk, PodBuffers& buffers)
      : in_(in),
        chunk_(std::max<std::size_t>(chunk, 1)),
        data_(buffers.window),
        capacity_(buffers.window_capacity) {}

  bool bad() const { return bad_; }
  std::string_view rest() const { return {data_.get() + pos_, size_ - pos_}; }
  void skip(std::size_t n) { pos_ += n; }

  // The next byte that is not a JSON space (consumed up to it), or -1 at the end.
  int peek() {
    for (;;) {
      while (pos_ < size_) {
        const char c = data_[pos_];
        if (c != ' ' && c != '\n' && c != '\r' && c != '\t') return static_cast<unsigned char>(c);
        ++pos_;
      }
      if (!more()) return -1;
    }
  }
  // At least `n` bytes unread, unless the file ends first.
  void need(std::size_t n) {
    while (size_ - pos_ < n && more()) {
    }
  }

  // The value at the current position into `doc`; `end` past it (and the
  // spaces after it). Reads more of the file while the value is cut short.
  bool value(Doc& doc, std::uint32_t& end) {
    for (;;) {
      const auto [line, col] = where();
      const std::string_view text = rest();
      const bool ok =
          !bad_ && text.size() < UINT32_MAX && parse_json_value(text, doc, line, col, end);
      // A number could go on in the bytes not read yet.
      if (ok && (end < text.size() || eof_)) return true;
      if (bad_) return false;
      if (!more() && !ok) return false;
    }
  }

 private:
  // Drops what was read and reads another piece; false at the end.
  bool more() {
    if (eof_) return false;
    where();
    std::memmove(data_.get(), data_.get() + pos_, size_ - pos_);
    size_ -= pos_;
    pos_ = lc_at_ = 0;
    if (size_ + chunk_ + 1 > capacity_) {
      capacity_ = std::max(2 * capacity_, size_ + chunk_ + 1);
      auto bigger = std::make_unique_for_overwrite<char[]>(capacity_);
      std::memcpy(bigger.get(), data_.get(), size_);
      data_ = std::move(bigger);
    }
    const std::size_t n = in_.read(data_.get() + size_, chunk_);
    if (n == 0) {
      eof_ = true;
      data_[size_] = '\0';
      return false;
    }
    if (std::memchr(data_.get() + size_, '\0', n)) bad_ = true;  // the document reader says so
    size_ += n;
    data_[size_] = '\0';
    return true;
  }
  // Line and column of the current position (moving the count there).
  std::pair<std::uint32_t, std::uint32_t> where() {
    const char* from = data_.get() + lc_at_;
    const char* to = data_.get() + pos_;
    const auto lines = static_cast<std::uint32_t>(count_newlines(from, to));
    if (lines > 0) {
      line_ += lines;
      const char* last = to - 1;
      while (*last != '\n') --last;
      col_ = static_cast<std::uint32_t>(to - last);
    } else {
      col_ += static_cast<std::uint32_t>(to - from);
    }
    lc_at_ = pos_;
    return {line_, col_};
  }

  ByteStream& in_;
  const std::size_t chunk_;
  std::unique_ptr<char[]>& data_;
  std::size_t& capacity_;
  std::size_t size_ = 0, pos_ = 0;
  std::size_t lc_at_ = 0;  // the position whose line and column these are
  std::uint32_t line_ = 1, col_ = 1;
  bool eof_ = false, bad_ = false;
};

// Follows the pod list in `in`, parsing each item into `buffers.doc` and
// handing it to `sink(index, text)` (`text`: the item's, which the doc views
// until the next item); false when it gave up.
template <class Sink>
bool scan_pods(ByteStream& in, std::size_t chunk_bytes, const Source& pods, bool strict,
               PodBuffers& buffers, Sink&& sink) {
  PodWindow w(in, chunk_bytes, buffers);
  Doc& doc = buffers.doc;
  w.need(3);
  if (w.rest().starts_with("\xEF\xBB\xBF")) w.skip(3);
  if (w.peek() != '{') return false;
  w.skip(1);
  std::uint32_t end = 0;
  std::string root = "{";  // the root without its items, checked at the end
  bool have_items = false;
  for (bool first = true;; first = false) {
    int c = w.peek();
    if (c == '}') {
      w.skip(1);
      break;
    }
    if (!first) {
      if (c != ',') return false;
      w.skip(1);
      c = w.peek();
      root += ',';
    }
    if (c != '"' || !w.value(doc, end) || doc[doc.root()].kind != ValueKind::String) return false;
    const std::string key(doc.text(doc.root()));
    root.append(w.rest().substr(0, end));
    w.skip(end);
    if (w.peek() != ':') return false;
    w.skip(1);
    root += ':';
    if (key != "items") {
      if (!w.value(doc, end)) return false;
      root.append(w.rest().substr(0, end));
      w.skip(end);
      continue;
    }
    if (have_items || w.peek() != '[') return false;
    have_items = true;
    root += "[]";
    w.skip(1);
    if (w.peek() == ']') {
      w.skip(1);
      continue;
    }
    for (std::uint32_t i = 0;; ++i) {
      if (!w.value(doc, end)) return false;
      sink(i, w.rest().substr(0, end));
      w.skip(end);
      const int next = w.peek();
      if (next != ']' && next != ',') return false;
      w.skip(1);
      if (next == ']') break;
    }
  }
  if (w.peek() != -1 || w.bad()) return false;
  // The root as the whole-document reader checks it, without a word.
  root += '}';
  Diagnostics quiet;
  quiet.set_strict(strict);
  const Source alone{pods.name, std::move(root), InputFormat::Json};
  const auto root_doc = parse_json(alone, &quiet);
  if (!root_doc) return false;
  Reader r(*root_doc, pods.name, quiet);
  return k8s::list_items(r, root_doc->root(), "pods") != kNoValue && quiet.items().empty();
}

// Parsed items on their way from the thread that reads and parses the file
// to the one that reads the pods out of them, in batches, in order.
class PodQueue {
 public:
  static constexpr std::size_t kBatch = 64, kDepth = 4;

  // `slots`: kept from file to file (PodBuffers); their readers are this file's.
  PodQueue(std::vector<PodSlot>& slots, const std::string& file, Diagnostics& diags)
      : slots_(slots) {
    slots_.resize(kBatch * kDepth);
    for (PodSlot& s : slots_) s.reader = std::make_unique<Reader>(s.doc, file, diags);
  }

  // The reading thread: a copy of the item, the Doc then viewing the copy.
  // `doc` is swapped with the slot's (no copy of the tree); the parser
  // empties it before the next item, keeping its memory.
  void push(Doc& doc, std::uint32_t index, std::string_view text) {
    if (fill_ == 0) {
      std::unique_lock lock(mutex_);
      changed_.wait(lock, [this] { return produced_ - consumed_ < kDepth; });
    }
    PodSlot& s = slots_[(produced_ % kDepth) * kBatch + fill_];
    s.text.assign(text);
    std::swap(s.doc, doc);
    s.doc.set_source(s.text);
    s.index = index;
    if (++fill_ == kBatch) publish();
  }
  void close() {
    publish();
    std::lock_guard lock(mutex_);
    done_ = true;
    changed_.notify_all();
  }

  // The calling thread: fn(reader, doc, index) for every item, until close().
  template <class Fn>
  void drain(Fn&& fn) {
    for (;;) {
      std::size_t count = 0;
      {
        std::unique_lock lock(mutex_);
        changed_.wait(lock, [this] { return consumed_ < produced_ || done_; });
        if (consumed_ == produced_) return;
        count = counts_[consumed_ % kDepth];
      }
      for (std::size_t k = 0; k < count; ++k) {
        PodSlot& s = slots_[(consumed_ % kDepth) * kBatch + k];
        s.reader->restart();
        fn(*s.reader, s.doc, s.index);
      }
      std::lock_guard lock(mutex_);
      ++consumed_;
      changed_.notify_all();
    }
  }

 private:
  void publish() {
    if (fill_ == 0) return;
    std::lock_guard lock(mutex_);
    counts_[produced_ % kDepth] = fill_;
    ++produced_;
    fill_ = 0;
    changed_.notify_all();
  }

  std::vector<PodSlot>& slots_;  // kDepth batches of kBatch
  std::mutex mutex_;
  std::condition_variable changed_;
  std::size_t produced_ = 0, consumed_ = 0;  // batches
  std::size_t fill_ = 0;                     // items in the batch being filled
  std::array<std::size_t, kDepth> counts_{};
  bool done_ = false;
};

}  // namespace

bool stream_pods(ByteStream& in, std::size_t chunk_bytes, const Source& pods, Diagnostics& diags,
                 PodBuffers& buffers, bool two_threads, const PodItemFn& item) {
  const bool strict = diags.strict();
  if (!two_threads) {
    Reader r(buffers.doc, pods.name, diags);  // over each item in turn
    return scan_pods(in, chunk_bytes, pods, strict, buffers,
                     [&](std::uint32_t i, std::string_view) {
                       r.restart();
                       item(r, buffers.doc, i);
                     });
  }
  PodQueue queue(buffers.slots, pods.name, diags);
  bool ok = false;
  std::thread parsing([&] {
    ok = scan_pods(
        in, chunk_bytes, pods, strict, buffers,
        [&](std::uint32_t i, std::string_view text) { queue.push(buffers.doc, i, text); });
    queue.close();
  });
  queue.drain(item);
  parsing.join();
  return ok;
}

void read_into(ByteStream& in, std::string& buffer) {
  std::size_t got = 0;
  while (got < buffer.size())
    if (const std::size_t n = in.read(buffer.data() + got, buffer.size() - got); n > 0)
      got += n;
    else
      break;
  buffer.resize(got);
}

InputFormat stream_format(const Source& pods, ByteStream& in) {
  std::string head(256, '\0');
  read_into(in, head);
  in.rewind();
  return source_format(Source{pods.name, std::move(head), pods.format});
}

}  // namespace eruplan
