// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers

// make_local_preconditioner for Tpetra's default types, compiled once for every user of the
// adapter (see the extern declaration in syncfree_tpetra_preconditioner.hpp).

#include "adapters/tpetra/syncfree_tpetra_preconditioner.hpp"

namespace syncfree::tpetra {

template std::unique_ptr<syncfree::Preconditioner<impl::default_local_matrix_type>>
make_local_preconditioner(const impl::default_execution_space&, const LocalPreconditionerOptions&,
                          const impl::default_local_matrix_type&);

}  // namespace syncfree::tpetra
