// The integer units every quantity is held in, parsed once at the edge.
#pragma once

#include <cstdint>

namespace eruplan {

using Bytes = std::int64_t;      // memory, storage, volume sizes
using Pieces = std::int64_t;     // CPU pieces; share_base pieces make one core
using NanoCores = std::int64_t;  // CPU quantities as written: 1 core = 1e9

inline constexpr NanoCores kNanoPerCore = 1'000'000'000;

}  // namespace eruplan
