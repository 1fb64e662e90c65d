// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief The host-side stagnation test of the Krylov solvers: has the residual norm fallen by a
/// set factor within the last window of iterations?

#include <cmath>

namespace syncfree::impl {

/// Remembers the last "fall" (a residual norm at most `factor` times the level of the previous
/// fall, which becomes the new level) and when the current window began (at that fall, or at a
/// restart of the solver). The solve has stagnated once `window` iterations pass without a new
/// fall. O(1) state, fed with the residual norms the host reads at each check.
class StagnationWatch {
 public:
  /// \param window iterations without a fall before stagnation; 0 disables the test
  /// \param factor a fall is a norm <= factor * the level, factor in (0, 1)
  StagnationWatch(int window, double factor) : m_window(window), m_factor(factor) {}

  bool enabled() const { return m_window > 0; }

  /// Takes the norm read after `iteration`; true when it is a new fall (the caller may keep the
  /// iterate). Norms that are not finite are ignored: the solver reports those itself.
  bool observe(int iteration, double norm) {
    if (!enabled() || !std::isfinite(norm)) return false;
    if (m_level_iteration >= 0 && !(norm <= m_factor * m_level)) return false;
    m_level_iteration = m_window_start = iteration;
    m_level = norm;
    return true;
  }

  /// After a convergence the true residual `norm` denied at `iteration` (the recursion's had
  /// drifted below it): the next fall is measured from `norm` when that is larger; the window goes
  /// on.
  void raise_level(int iteration, double norm) {
    if (!std::isfinite(norm) || !(norm > m_level)) return;
    m_level = norm;
    m_level_iteration = iteration;
  }

  /// Starts a new window at `iteration` (after the solver restarted), keeping the level.
  void restart_window(int iteration) { m_window_start = iteration; }

  bool stagnated(int iteration) const {
    return enabled() && m_level_iteration >= 0 && iteration - m_window_start >= m_window;
  }

  int level_iteration() const { return m_level_iteration; }
  double level() const { return m_level; }
  int window() const { return m_window; }
  double factor() const { return m_factor; }

 private:
  int m_window;
  double m_factor;
  int m_level_iteration = -1;
  int m_window_start = -1;
  double m_level = 0;
};

}  // namespace syncfree::impl
