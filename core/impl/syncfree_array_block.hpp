// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief Arrays of several types in one device allocation: a cudaMalloc of 1 MiB or more costs the
/// same whatever its size, so a plan's half-dozen arrays take one allocation instead of six.
///
/// Lay the arrays out first (`ArrayBlockLayout::add`), allocate the block once, then take each
/// array from it (`array_in`). The arrays do not own their memory: whoever keeps them keeps the
/// block too.

#include <cstddef>
#include <string>

#include "core/impl/syncfree_kokkos_compat.hpp"

namespace syncfree::impl {

/// Where each array lies in the block, every one aligned to 256 bytes (what cudaMalloc gives).
class ArrayBlockLayout {
 public:
  template <class T>
  struct Slot {
    std::size_t offset;
    std::size_t count;
  };

  template <class T>
  Slot<T> add(std::size_t count) {
    constexpr std::size_t alignment = 256;
    static_assert(alignof(T) <= alignment, "ArrayBlockLayout aligns to 256 bytes");
    const std::size_t offset = (m_bytes + alignment - 1) / alignment * alignment;
    m_bytes = offset + count * sizeof(T);
    return {offset, count};
  }

  std::size_t bytes() const { return m_bytes; }

 private:
  std::size_t m_bytes = 0;
};

template <class Device>
using ArrayBlock = Kokkos::View<unsigned char*, Device>;

/// The uninitialized block for `layout`.
template <class Device>
ArrayBlock<Device> allocate_array_block(const std::string& label, const ArrayBlockLayout& layout) {
  return ArrayBlock<Device>(Kokkos::view_alloc(Kokkos::WithoutInitializing, label), layout.bytes());
}

/// The array at `slot` of `block`.
template <class T, class Device>
Kokkos::View<T*, Device> array_in(const ArrayBlock<Device>& block, ArrayBlockLayout::Slot<T> slot) {
  return Kokkos::View<T*, Device>(reinterpret_cast<T*>(block.data() + slot.offset), slot.count);
}

}  // namespace syncfree::impl
