// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief An operator that counts its applications, for asserting what a solver costs.

#include <string>

#include "core/syncfree_operator.hpp"

namespace syncfree::test {

template <class Scalar, class Device>
class CountingOperator final : public Operator<Scalar, Device> {
 public:
  using base = Operator<Scalar, Device>;
  explicit CountingOperator(const base& op) : m_op(op) {}

  std::size_t num_rows() const override { return m_op.num_rows(); }
  std::size_t num_cols() const override { return m_op.num_cols(); }
  std::string name() const override { return "counting " + m_op.name(); }
  int applications() const { return m_count; }

  void apply(const typename base::execution_space& exec, const typename base::const_vector_type& x,
             const typename base::vector_type& y, Scalar alpha = Scalar(1),
             Scalar beta = Scalar(0)) const override {
    ++m_count;
    m_op.apply(exec, x, y, alpha, beta);
  }

 private:
  const base& m_op;
  mutable int m_count = 0;
};

}  // namespace syncfree::test
