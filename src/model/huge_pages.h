// Large buffers written once front to back (an input's text, the document
// tree's arrays): on virtual machines first touching a 4 KiB page is costly,
// so such a buffer is advised into 2 MiB pages before it is written. On the
// README's 675 MB kubectl pod list this took the whole plan from 6.1-6.3 s
// to 4.0-4.1 s of CPU, and BM_ParseJson from 125-135 ms to 22 ms.
#pragma once

#include <sys/mman.h>

#include <cstddef>
#include <cstdint>

namespace eruplan {

// Only the 2 MiB-aligned part of [data, data + bytes) is advised; the kernel
// may decline, which changes nothing but the time.
inline void advise_huge_pages(void* data, std::size_t bytes) {
  constexpr std::uintptr_t kHuge = std::uintptr_t{2} << 20;
  const auto start = reinterpret_cast<std::uintptr_t>(data);
  const std::uintptr_t begin = (start + kHuge - 1) & ~(kHuge - 1);
  const std::uintptr_t end = (start + bytes) & ~(kHuge - 1);
  if (end > begin) madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
}

}  // namespace eruplan
