// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include <atomic>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace gp::study {

/// Residuals at a point of the unit box [0, 1]^n: nullopt where the model gives no finite figure.
using ResidualFunction = std::function<std::optional<std::vector<double>>(const std::vector<double>& u)>;

struct LeastSquaresOptions
{
    int maxIterations = 200;
    double finiteDifferenceStep = 1e-3;      ///< in the unit box: a thousandth of each parameter's range
    double relativeTolerance = 1e-7;         ///< an accepted step that lowers the cost by less is the end
    double stepTolerance = 1e-6;             ///< ... and one that moves no parameter by more (unit box)
    const std::atomic<bool>* stop = nullptr; ///< set: ends before the next iteration, not converged
};

struct LeastSquaresResult
{
    std::vector<double> u;    ///< the solution in the unit box
    double initialCost = 0.0; ///< ½ Σ r² at the start
    double cost = 0.0;        ///< ... at the solution
    int iterations = 0;
    int evaluations = 0;
    bool converged = false;
    std::string why;              ///< how it ended, in words
    std::vector<double> jacobian; ///< at the solution, row-major (residuals × parameters)
    std::size_t residualCount = 0;
};

/// Bounded Levenberg–Marquardt (Moré 1978: the damping scaled by diag(JᵀJ)) with projection onto
/// the box: a parameter at a bound the gradient pushes against is held there for the step (the
/// active set, Bertsekas 1982), each trial clipped to [0, 1]^n and kept where it lowers the cost;
/// the damping falls threefold after an accepted step, rises tenfold after a refused one. The
/// Jacobian is by forward differences (backward at the upper bound). It has converged when an
/// accepted step lowers the cost by less than relativeTolerance of it or moves no parameter by more
/// than stepTolerance, the projected gradient vanishes, or no damping finds a lower cost (a minimum,
/// local at the least, of a model with kinks); it has not when maxIterations pass or the model
/// stops giving finite figures.
LeastSquaresResult boundedLeastSquares(const ResidualFunction& f, std::vector<double> u0,
                                       const LeastSquaresOptions& options = {});

/// The forward-difference Jacobian of `f` at `u` (row-major, r.size() × u.size()); nullopt where
/// `f` gives no figure at a probe.
std::optional<std::vector<double>> finiteDifferenceJacobian(const ResidualFunction& f, const std::vector<double>& u,
                                                            const std::vector<double>& r, double step);

/// (AᵀA)⁻¹'s diagonal for an m × n row-major A by Cholesky; nullopt when AᵀA is singular.
std::optional<std::vector<double>> inverseNormalDiagonal(const std::vector<double>& a, std::size_t m, std::size_t n);

} // namespace gp::study
