// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief SyncFree's preconditioners as an Ifpack2 preconditioner of a Tpetra matrix.
///
/// Each rank runs a SyncFree preconditioner on its diagonal block (block Jacobi, overlap 0).
/// For overlap, give it to Ifpack2::AdditiveSchwarz as the inner preconditioner
/// (`setInnerPreconditioner`, or `create_preconditioner` with "schwarz: overlap level"): it
/// implements Ifpack2::Details::CanChangeMatrix for that.

#include <memory>
#include <sstream>
#include <string>
#include <utility>

#include <Ifpack2_Details_CanChangeMatrix.hpp>
#include <Ifpack2_LocalFilter.hpp>
#include <Ifpack2_Preconditioner.hpp>
#include <Teuchos_Time.hpp>
#include <Tpetra_Details_DefaultTypes.hpp>
#include <Tpetra_MultiVector.hpp>
#include <Tpetra_RowMatrix.hpp>

#include "adapters/tpetra/impl/syncfree_tpetra_agreement.hpp"
#include "adapters/tpetra/impl/syncfree_tpetra_local_block.hpp"
#include "adapters/tpetra/syncfree_tpetra_parameters.hpp"
#include "core/syncfree_error.hpp"

namespace syncfree::tpetra {

namespace impl {
/// A rank's block for Tpetra's default types (double values), whose `make_local_preconditioner`
/// the adapter's library compiles once (syncfree_tpetra_instantiations.cpp).
using default_node_type = Tpetra::Details::DefaultTypes::node_type;
using default_local_matrix_type =
    typename LocalBlock<double, Tpetra::Details::DefaultTypes::local_ordinal_type,
                        Tpetra::Details::DefaultTypes::global_ordinal_type,
                        default_node_type>::matrix_type;
using default_execution_space = typename default_node_type::device_type::execution_space;
}  // namespace impl

// It instantiates every SyncFree preconditioner: each translation unit using the default types
// links the library's copy instead of compiling them again.
extern template std::unique_ptr<syncfree::Preconditioner<impl::default_local_matrix_type>>
make_local_preconditioner(const impl::default_execution_space&, const LocalPreconditionerOptions&,
                          const impl::default_local_matrix_type&);

/// An Ifpack2 preconditioner that runs a SyncFree preconditioner (the "syncfree: ..." parameters
/// of `valid_parameters()` choose which) on each rank's diagonal block.
///
/// - `initialize()` reads the block and analyzes it (SyncFree's constructors also factor the
///   values present then); `compute()` reads the values again and factors them, with no new
///   analysis; a pattern changed since `initialize()` is an error (StructureMismatch).
/// - `setMatrix` with another matrix drops both; `compute()` initializes again when needed.
/// - Errors of `initialize()` and `compute()` (a missing or zero pivot, a non-square matrix) are
///   thrown on every rank of the matrix's communicator, or of the one `set_error_communicator`
///   names, with the rank and the global row, so that no rank waits on the others.
template <class Scalar, class LO, class GO, class Node>
class Preconditioner final
    : virtual public Ifpack2::Preconditioner<Scalar, LO, GO, Node>,
      virtual public Ifpack2::Details::CanChangeMatrix<Tpetra::RowMatrix<Scalar, LO, GO, Node>> {
 public:
  using row_matrix_type = Tpetra::RowMatrix<Scalar, LO, GO, Node>;
  using map_type = Tpetra::Map<LO, GO, Node>;
  using multivector_type = Tpetra::MultiVector<Scalar, LO, GO, Node>;
  using local_matrix_type = typename impl::LocalBlock<Scalar, LO, GO, Node>::matrix_type;
  using execution_space = typename Node::device_type::execution_space;

  explicit Preconditioner(const Teuchos::RCP<const row_matrix_type>& A = Teuchos::null) : m_A(A) {}

  /// \throws InvalidArgument for a parameter not in `valid_parameters()`, of the wrong type, or
  /// out of range (on every rank given the same list). Drops the analysis and the factors.
  void setParameters(const Teuchos::ParameterList& list) override {
    m_options = parse_parameters(list);
    reset();
  }

  void setMatrix(const Teuchos::RCP<const row_matrix_type>& A) override {
    if (A.getRawPtr() == m_A.getRawPtr()) return;
    m_A = A;
    reset();
  }

  /// Errors of `initialize()` and `compute()` are thrown on every rank of `comm` (a collective
  /// in both) instead of the matrix's: for the inner preconditioner of AdditiveSchwarz, whose
  /// subdomain matrix has a communicator of one rank.
  void set_error_communicator(const Teuchos::RCP<const Teuchos::Comm<int>>& comm) {
    m_error_comm = comm;
  }

  void initialize() override {
    SYNCFREE_REQUIRE(!m_A.is_null(), InvalidState,
                     "syncfree::tpetra::Preconditioner::initialize: no matrix; call setMatrix");
    Teuchos::Time timer("syncfree::tpetra::initialize", true);
    reset();
    const auto& comm = error_comm();
    impl::run_on_every_rank(
        comm,
        [&] {
          require_square();
          m_block.extract(*m_A);
          const auto options =
              resolve_automatic(execution_space(), m_options, m_block.matrix(), m_choice_reason);
          m_local = make_local_preconditioner(execution_space(), options, m_block.matrix());
          ++m_num_factorizations;
        },
        describer("initialize"));
    m_initialized = true;
    ++m_num_initialize;
    m_initialize_time += timer.stop();
  }

  /// Reads the values and factors them, unless they are those already factored (by
  /// `initialize()` or the last `compute()`).
  void compute() override {
    if (!m_initialized) initialize();
    Teuchos::Time timer("syncfree::tpetra::compute", true);
    m_computed = false;
    impl::run_on_every_rank(
        error_comm(),
        [&] {
          if (m_block.refresh_values(*m_A)) {
            m_local->refactor(execution_space(), m_block.matrix());
            ++m_num_factorizations;
          }
          const Outcome& outcome = m_local->outcome();
          if (!outcome.ok()) throw InvalidMatrix(outcome.reason, outcome.index);
        },
        describer("compute"));
    m_computed = true;
    ++m_num_compute;
    m_compute_time += timer.stop();
  }

  /// Y = alpha M^{-1} X + beta Y, column by column.
  /// \throws NotSupported for a transposed apply; InvalidState before `compute()`.
  void apply(const multivector_type& X, multivector_type& Y,
             Teuchos::ETransp mode = Teuchos::NO_TRANS,
             Scalar alpha = Teuchos::ScalarTraits<Scalar>::one(),
             Scalar beta = Teuchos::ScalarTraits<Scalar>::zero()) const override {
    SYNCFREE_REQUIRE(m_computed, InvalidState,
                     "syncfree::tpetra::Preconditioner::apply: call compute() first");
    SYNCFREE_REQUIRE(mode == Teuchos::NO_TRANS, NotSupported,
                     "syncfree::tpetra::Preconditioner::apply: only the non-transposed apply is "
                     "available (SyncFree's preconditioners do not apply their transposes)");
    SYNCFREE_REQUIRE(
        X.getNumVectors() == Y.getNumVectors() && X.getLocalLength() == m_local->num_rows() &&
            Y.getLocalLength() == m_local->num_rows(),
        DimensionMismatch, "syncfree::tpetra::Preconditioner::apply: X is ", X.getLocalLength(),
        "x", X.getNumVectors(), " and Y ", Y.getLocalLength(), "x", Y.getNumVectors(),
        " on this rank, whose block has ", m_local->num_rows(), " rows");
    Teuchos::Time timer("syncfree::tpetra::apply", true);
    // Each column reads X whole before writing Y; where they share storage, read a copy.
    const bool alias = X.getNumVectors() > 0 && X.getLocalLength() > 0 &&
                       X.getVector(0)->getLocalViewDevice(Tpetra::Access::ReadOnly).data() ==
                           Y.getVector(0)->getLocalViewDevice(Tpetra::Access::ReadOnly).data();
    const multivector_type& input = alias ? *m_alias_copy.assign(X) : X;
    const execution_space exec;
    for (std::size_t j = 0; j < X.getNumVectors(); ++j) {
      const auto x = input.getVector(j);
      const auto y = Y.getVectorNonConst(j);
      m_local->apply(
          exec, Kokkos::subview(x->getLocalViewDevice(Tpetra::Access::ReadOnly), Kokkos::ALL(), 0),
          Kokkos::subview(y->getLocalViewDevice(Tpetra::Access::ReadWrite), Kokkos::ALL(), 0),
          alpha, beta);
    }
    // No fence: Tpetra orders what reads Y after these kernels. On an asynchronous backend the
    // apply time is then the time to launch them.
    ++m_num_apply;
    m_apply_time += timer.stop();
  }

  bool hasTransposeApply() const override { return false; }
  Teuchos::RCP<const map_type> getDomainMap() const override { return m_A->getDomainMap(); }
  Teuchos::RCP<const map_type> getRangeMap() const override { return m_A->getRangeMap(); }
  Teuchos::RCP<const row_matrix_type> getMatrix() const override { return m_A; }

  bool isInitialized() const override { return m_initialized; }
  bool isComputed() const override { return m_computed; }
  int getNumInitialize() const override { return m_num_initialize; }
  int getNumCompute() const override { return m_num_compute; }
  int getNumApply() const override { return m_num_apply; }
  double getInitializeTime() const override { return m_initialize_time; }
  double getComputeTime() const override { return m_compute_time; }
  double getApplyTime() const override { return m_apply_time; }

  /// Numeric factorizations run on this rank (an analysis factors once too).
  int num_factorizations() const { return m_num_factorizations; }
  /// The SyncFree preconditioner of this rank's block; null before `initialize()`.
  const syncfree::Preconditioner<local_matrix_type>* local_preconditioner() const {
    return m_local.get();
  }
  /// The options the parameters gave.
  const LocalPreconditionerOptions& options() const { return m_options; }
  /// With "syncfree: preconditioner" = auto, what this rank's block got and why: chosen by
  /// `initialize()` and kept by `compute()`; empty otherwise.
  const std::string& choice_reason() const { return m_choice_reason; }

  std::string description() const override {
    std::ostringstream out;
    out << "\"syncfree::tpetra::Preconditioner\": {Initialized: "
        << (m_initialized ? "true" : "false") << ", Computed: " << (m_computed ? "true" : "false")
        << ", SyncFree: " << (m_local ? m_local->name() : m_options.method);
    if (!m_choice_reason.empty()) out << ", Choice: \"" << m_choice_reason << "\"";
    if (!m_A.is_null())
      out << ", Global matrix dimensions: [" << m_A->getGlobalNumRows() << ", "
          << m_A->getGlobalNumCols() << "]";
    out << "}";
    return out.str();
  }

  void describe(Teuchos::FancyOStream& out,
                const Teuchos::EVerbosityLevel level =
                    Teuchos::Describable::verbLevel_default) const override {
    if (level == Teuchos::VERB_NONE) return;
    out << description() << '\n';
    if (level == Teuchos::VERB_LOW || level == Teuchos::VERB_DEFAULT) return;
    Teuchos::OSTab tab(out);
    out << "initialize: " << m_num_initialize << " calls, " << m_initialize_time << " s\n"
        << "compute: " << m_num_compute << " calls, " << m_compute_time << " s, "
        << m_num_factorizations << " factorizations on this rank\n"
        << "apply: " << m_num_apply << " calls, " << m_apply_time << " s\n";
  }

 private:
  /// A copy of X, kept between applications.
  struct AliasCopy {
    Teuchos::RCP<multivector_type> copy;
    const multivector_type* assign(const multivector_type& X) {
      if (copy.is_null() || copy->getNumVectors() != X.getNumVectors() ||
          !copy->getMap()->isSameAs(*X.getMap()))
        copy = Teuchos::rcp(new multivector_type(X.getMap(), X.getNumVectors(), false));
      Tpetra::deep_copy(*copy, X);
      return copy.get();
    }
  };

  void reset() {
    m_initialized = m_computed = false;
    m_local.reset();
    m_choice_reason.clear();
  }

  const Teuchos::Comm<int>& error_comm() const {
    return m_error_comm.is_null() ? *m_A->getRowMap()->getComm() : *m_error_comm;
  }

  /// \throws InvalidMatrix unless A is square with the same row, domain and range maps.
  void require_square() const {
    SYNCFREE_REQUIRE(m_A->getGlobalNumRows() == m_A->getGlobalNumCols(), InvalidMatrix,
                     "the matrix is ", m_A->getGlobalNumRows(), "x", m_A->getGlobalNumCols(),
                     "; a preconditioner needs a square one");
    const auto rows = m_A->getRowMap();
    SYNCFREE_REQUIRE(rows->isSameAs(*m_A->getDomainMap()) && rows->isSameAs(*m_A->getRangeMap()),
                     InvalidMatrix,
                     "the row, domain and range maps differ; each rank's block must be square");
  }

  /// The global row of local row i: the subdomain's rows where A is AdditiveSchwarz's
  /// (overlapping) subdomain matrix, else A's.
  GO global_row(LO i) const {
    using filter_type = Ifpack2::LocalFilter<row_matrix_type>;
    if (const auto* filter = dynamic_cast<const filter_type*>(m_A.getRawPtr()))
      return filter->getUnderlyingMatrix()->getRowMap()->getGlobalElement(i);
    return m_A->getRowMap()->getGlobalElement(i);
  }

  /// Names the phase, this rank and, for an error of one row, its global number.
  auto describer(const char* phase) const {
    return [this, phase](const std::string& what, std::int64_t row) {
      const int rank = error_comm().getRank();
      std::string where =
          syncfree::impl::concat("syncfree::tpetra::Preconditioner::", phase, " (",
                                 m_local ? m_local->name() : m_options.method, ") on rank ", rank);
      const bool local_row = row >= 0 && row < std::int64_t(m_A->getNodeNumRows());
      if (!local_row) return std::make_pair(where + ": " + what, std::int64_t(-1));
      const GO global = global_row(LO(row));
      return std::make_pair(
          syncfree::impl::concat(where, ", global row ", global, " (local row ", row, "): ", what),
          std::int64_t(global));
    };
  }

  Teuchos::RCP<const row_matrix_type> m_A;
  Teuchos::RCP<const Teuchos::Comm<int>> m_error_comm;
  LocalPreconditionerOptions m_options;
  std::string m_choice_reason;
  impl::LocalBlock<Scalar, LO, GO, Node> m_block;
  std::unique_ptr<syncfree::Preconditioner<local_matrix_type>> m_local;
  mutable AliasCopy m_alias_copy;
  bool m_initialized = false, m_computed = false;
  int m_num_initialize = 0, m_num_compute = 0, m_num_factorizations = 0;
  mutable int m_num_apply = 0;
  double m_initialize_time = 0, m_compute_time = 0;
  mutable double m_apply_time = 0;
};

}  // namespace syncfree::tpetra
