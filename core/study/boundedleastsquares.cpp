// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "boundedleastsquares.h"

#include <algorithm>
#include <cmath>

namespace gp::study {

namespace {

double halfSquares(const std::vector<double>& r)
{
    double s = 0.0;
    for (double x : r)
        s += x * x;
    return 0.5 * s;
}

/// Solves the symmetric positive definite n × n system A x = b in place by Cholesky; false when A
/// is not positive definite.
bool choleskySolve(std::vector<double> a, std::vector<double>& b, std::size_t n)
{
    for (std::size_t j = 0; j < n; ++j) {
        double d = a[j * n + j];
        for (std::size_t k = 0; k < j; ++k)
            d -= a[j * n + k] * a[j * n + k];
        if (!(d > 0.0))
            return false;
        d = std::sqrt(d);
        a[j * n + j] = d;
        for (std::size_t i = j + 1; i < n; ++i) {
            double s = a[i * n + j];
            for (std::size_t k = 0; k < j; ++k)
                s -= a[i * n + k] * a[j * n + k];
            a[i * n + j] = s / d;
        }
    }
    for (std::size_t i = 0; i < n; ++i) {
        double s = b[i];
        for (std::size_t k = 0; k < i; ++k)
            s -= a[i * n + k] * b[k];
        b[i] = s / a[i * n + i];
    }
    for (std::size_t i = n; i-- > 0;) {
        double s = b[i];
        for (std::size_t k = i + 1; k < n; ++k)
            s -= a[k * n + i] * b[k];
        b[i] = s / a[i * n + i];
    }
    return true;
}

std::vector<double> normalMatrix(const std::vector<double>& j, std::size_t m, std::size_t n)
{
    std::vector<double> a(n * n, 0.0);
    for (std::size_t r = 0; r < m; ++r)
        for (std::size_t p = 0; p < n; ++p)
            for (std::size_t q = 0; q <= p; ++q)
                a[p * n + q] += j[r * n + p] * j[r * n + q];
    for (std::size_t p = 0; p < n; ++p)
        for (std::size_t q = 0; q < p; ++q)
            a[q * n + p] = a[p * n + q];
    return a;
}

} // namespace

std::optional<std::vector<double>> finiteDifferenceJacobian(const ResidualFunction& f, const std::vector<double>& u,
                                                            const std::vector<double>& r, double step)
{
    const std::size_t n = u.size(), m = r.size();
    std::vector<double> jac(m * n, 0.0);
    for (std::size_t p = 0; p < n; ++p) {
        std::vector<double> probe = u;
        const double h = u[p] + step <= 1.0 ? step : -step;
        probe[p] += h;
        const auto rp = f(probe);
        if (!rp || rp->size() != m)
            return std::nullopt;
        for (std::size_t i = 0; i < m; ++i)
            jac[i * n + p] = ((*rp)[i] - r[i]) / h;
    }
    return jac;
}

std::optional<std::vector<double>> inverseNormalDiagonal(const std::vector<double>& a, std::size_t m, std::size_t n)
{
    const std::vector<double> normal = normalMatrix(a, m, n);
    std::vector<double> diag(n, 0.0);
    for (std::size_t p = 0; p < n; ++p) {
        std::vector<double> e(n, 0.0);
        e[p] = 1.0;
        if (!choleskySolve(normal, e, n))
            return std::nullopt;
        diag[p] = e[p];
    }
    return diag;
}

LeastSquaresResult boundedLeastSquares(const ResidualFunction& f, std::vector<double> u0,
                                       const LeastSquaresOptions& options)
{
    LeastSquaresResult res;
    const std::size_t n = u0.size();
    for (double& x : u0)
        x = std::clamp(x, 0.0, 1.0);
    res.u = u0;
    auto r = f(res.u);
    ++res.evaluations;
    if (!r) {
        res.why = "the model gives no finite figure at the starting point";
        return res;
    }
    const std::size_t m = r->size();
    res.residualCount = m;
    res.cost = res.initialCost = halfSquares(*r);
    double lambda = 1e-3;
    for (res.iterations = 0; res.iterations < options.maxIterations; ++res.iterations) {
        if (options.stop && options.stop->load()) {
            res.why = "stopped";
            return res;
        }
        const auto jac = finiteDifferenceJacobian(f, res.u, *r, options.finiteDifferenceStep);
        res.evaluations += int(n);
        if (!jac) {
            res.why = "the model stops giving finite figures near the current parameters";
            return res;
        }
        res.jacobian = *jac;
        // The gradient Jᵀr, projected: a component pushing out of the box at a bound counts for nothing.
        std::vector<double> g(n, 0.0);
        for (std::size_t i = 0; i < m; ++i)
            for (std::size_t p = 0; p < n; ++p)
                g[p] += (*jac)[i * n + p] * (*r)[i];
        double projected = 0.0;
        std::vector<bool> held(n, false); // at a bound that the descent pushes against: held there this step
        for (std::size_t p = 0; p < n; ++p) {
            held[p] = (res.u[p] <= 0.0 && g[p] > 0.0) || (res.u[p] >= 1.0 && g[p] < 0.0);
            if (!held[p])
                projected = std::max(projected, std::abs(g[p]));
        }
        if (projected <= 1e-12 * (1.0 + res.cost)) {
            res.converged = true;
            res.why = "the gradient vanishes within the bounds";
            return res;
        }
        const std::vector<double> normal = normalMatrix(*jac, m, n);
        bool accepted = false;
        while (!accepted && lambda < 1e12) {
            std::vector<double> a = normal;
            for (std::size_t p = 0; p < n; ++p)
                a[p * n + p] += lambda * (normal[p * n + p] + 1e-12);
            std::vector<double> step(n);
            for (std::size_t p = 0; p < n; ++p)
                step[p] = -g[p];
            // The active set (Bertsekas 1982, projected Newton): a held parameter takes no part in
            // the step, so the others are solved for as if it were fixed, not clipped afterwards.
            for (std::size_t p = 0; p < n; ++p)
                if (held[p]) {
                    for (std::size_t q = 0; q < n; ++q)
                        a[p * n + q] = a[q * n + p] = 0.0;
                    a[p * n + p] = 1.0;
                    step[p] = 0.0;
                }
            if (!choleskySolve(a, step, n)) {
                lambda *= 10.0;
                continue;
            }
            std::vector<double> trial(n);
            for (std::size_t p = 0; p < n; ++p)
                trial[p] = std::clamp(res.u[p] + step[p], 0.0, 1.0);
            const auto rt = f(trial);
            ++res.evaluations;
            const double cost = rt && rt->size() == m ? halfSquares(*rt) : INFINITY;
            if (cost < res.cost) {
                const double gain = res.cost - cost;
                double moved = 0.0;
                for (std::size_t p = 0; p < n; ++p)
                    moved = std::max(moved, std::abs(trial[p] - res.u[p]));
                res.u = trial;
                r = rt;
                res.cost = cost;
                lambda = std::max(lambda / 3.0, 1e-9);
                accepted = true;
                const bool small = gain <= options.relativeTolerance * (cost + 1e-300) || gain < 1e-18;
                if (small || moved < options.stepTolerance) {
                    ++res.iterations;
                    res.converged = true;
                    res.why = small ? "the last step lowered the error by less than the tolerance"
                                    : "the last step moved no parameter by more than a millionth of its range";
                    // The Jacobian at the solution, for the uncertainties.
                    if (const auto j2 = finiteDifferenceJacobian(f, res.u, *r, options.finiteDifferenceStep))
                        res.jacobian = *j2;
                    res.evaluations += int(n);
                    return res;
                }
            } else {
                lambda *= 10.0;
            }
        }
        if (!accepted) {
            res.converged = true;
            res.why = "no step within the bounds lowers the error further (a minimum)";
            return res;
        }
    }
    res.why = "did not converge in " + std::to_string(options.maxIterations) + " iterations";
    return res;
}

} // namespace gp::study
