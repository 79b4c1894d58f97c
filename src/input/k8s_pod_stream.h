// --pods: a JSON pod list read a piece at a time, for the pod loader
// (load_k8s_pods.cpp) alone.
//
// `kubectl get pods -A -o json` of a large cluster runs to hundreds of
// megabytes, and its document tree would take several times that. A JSON pod
// list is therefore read through a window of about PodReading::chunk_bytes of
// the file: the root object's members are followed by hand (strings and
// brackets), each element of `items` is parsed on its own into a small Doc
// whose positions are the file's, read exactly as the whole-document reader
// reads it, and dropped. The root's other members are parsed on their own and
// checked as the whole-document reader checks them. Anything out of the
// ordinary (malformed JSON anywhere, a NUL, an odd root) gives up: the pod
// loader (PodListRead) undoes what was read and the whole file is read again as
// a document, which reports it as always.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "diagnostics.h"
#include "doc_tree.h"
#include "load.h"
#include "reader.h"

namespace eruplan {

// One parsed item on its way to the thread that reads the pods (PodQueue, in k8s_pod_stream.cpp).
struct PodSlot {
  Doc doc{std::string_view()};
  std::string text;  // the item's, which doc views
  std::uint32_t index = 0;
  std::unique_ptr<Reader> reader;  // over `doc`
};

// The memory a pod list is read through, kept from one --pods file to the
// next: the window onto the file, the parsing thread's Doc, the queue's
// slots. Each file starting over with empty ones (the slots' trees and
// texts grown again a push_back at a time, a fresh 1 MiB window) showed as
// memmove, malloc and cache misses when reading 40 per-namespace files.
struct PodBuffers {
  std::unique_ptr<char[]> window = std::make_unique<char[]>(1);
  std::size_t window_capacity = 1;
  Doc doc{std::string_view()};
  std::vector<PodSlot> slots;
};

// What the streamed reading hands over: the item `index` of the list, its
// tree `doc` read with `r` (which reports into the Diagnostics given to
// stream_pods).
using PodItemFn = std::function<void(Reader& r, const Doc& doc, std::uint32_t index)>;

// Reads the pod list in `in` (the --pods file `pods`), item(r, doc, i) for
// each element of its `items` in order; false when it gave up, the caller
// then reading the whole file as a document. With `two_threads`, one thread
// reads and parses the file while this one reads the pods out of the items
// (each about half of the work); the items are read in order either way, so
// the result is the same.
bool stream_pods(ByteStream& in, std::size_t chunk_bytes, const Source& pods, Diagnostics& diags,
                 PodBuffers& buffers, bool two_threads, const PodItemFn& item);

// Reads `in` into `buffer` up to its size or the stream's end; the buffer
// is cut to what was read.
void read_into(ByteStream& in, std::string& buffer);

// The format of a streamed file: from its name, else its first bytes.
InputFormat stream_format(const Source& pods, ByteStream& in);

}  // namespace eruplan
