// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "model/catalog.h"
#include "model/issue.h"
#include "model/scenario.h"
#include "sim/planresults.h"

#include <QRectF>
#include <QString>

#include <memory>
#include <vector>

class QPainter;

namespace gp::ui {

struct PlanFigures;
struct PlanRecommendation;

/// The slides of a scenario, for stakeholders who will never open the tool: title, executive
/// summary, topology, the sharing stack of the modes in use (GPU → partition or hypervisor →
/// container runtime and device plugin → framework: where the sharing happens), the trade-off
/// chart and matrix, cost, predictability, and the recommendation the user writes. Painted
/// onto any QPainter: the full-screen presentation, a PNG, or the deck PDF.
class SlideDeck
{
public:
    SlideDeck(const sim::PlanResults& results, const Catalog& catalog, QString recommendation);
    /// A comparison of two to four scenarios (the first is the baseline): title, the KPIs with
    /// their changes marked better or worse, what differs, the topologies, the costs, the
    /// completion times side by side, and the recommendation.
    SlideDeck(const std::vector<std::shared_ptr<const sim::PlanResults>>& results, const Catalog& catalog,
              QString recommendation);
    ~SlideDeck();
    int count() const;
    QString title(int slide) const;
    /// Paints slide `slide` into `area` (16:9 looks best), on a white background.
    void paint(QPainter& painter, const QRectF& area, int slide) const;
    /// Writes every slide to a PDF (one landscape page each) through io::writeFileAtomically.
    Status writePdf(const QString& path) const;

private:
    void paintStack(QPainter& p, const QRectF& area) const;
    void paintComparison(QPainter& p, const QRectF& area, int slide) const;
    bool comparing() const { return mAll.size() > 1; }

    std::vector<std::unique_ptr<PlanFigures>> mAll; ///< one per scenario
    PlanFigures* mFigures = nullptr;                ///< the first (the only one outside a comparison)
    const Catalog* mCatalog = nullptr;              ///< a comparison's: what differs is named as it names things
    QString mRecommendation;
    std::shared_ptr<const PlanRecommendation> mVerdict; ///< B against A, when comparing
};

} // namespace gp::ui
