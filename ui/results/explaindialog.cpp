// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "explaindialog.h"
#include "io/textformat.h"

#include "model/assumptions.h"

#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

#include <cmath>

namespace gp::ui {

namespace {
using text::q;

QLabel* wrapped(const QString& html, QWidget* parent, const char* name)
{
    auto* label = new QLabel(html, parent);
    label->setObjectName(name);
    label->setWordWrap(true);
    label->setTextFormat(Qt::RichText);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return label;
}
} // namespace

ExplainDialog::ExplainDialog(const calc::KpiExplanation& x, const std::map<std::string, double>& assumptions,
                             QWidget* parent)
    : QDialog(parent), mExplanation(x)
{
    setObjectName("explainDialog");
    setWindowTitle(tr("How %1 is computed").arg(q(x.label)));
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(wrapped(QString("<h2>%1: %2</h2>").arg(q(x.label).toHtmlEscaped(), q(x.value).toHtmlEscaped()),
                              this, "explainTitle"));
    layout->addWidget(
        wrapped("<p><b>" + tr("Formula") + "</b><br>" + q(x.formula).toHtmlEscaped() + "</p>", this, "explainFormula"));
    if (!x.lines.empty()) {
        QString items;
        for (const std::string& line : x.lines)
            items += "<li>" + q(line).toHtmlEscaped() + "</li>";
        layout->addWidget(wrapped("<p><b>" + tr("Behind it") + "</b></p><ul>" + items + "</ul>", this, "explainLines"));
    }
    if (!x.jobIds.empty()) {
        auto* show = new QPushButton(tr("Show These Jobs on the Canvas"), this);
        show->setObjectName("explainShowJobs");
        connect(show, &QPushButton::clicked, this, [this] { Q_EMIT showJobsRequested(mExplanation.jobIds); });
        layout->addWidget(show);
    }
    if (!x.calibration.empty()) {
        // Issue 38: which of this figure's inputs came from the scenario's calibration profile
        // rather than the defaults (docs/calibration.md#where-a-number-came-from).
        QString items;
        for (const std::string& line : x.calibrated)
            items += "<li>" + q(line).toHtmlEscaped() + "</li>";
        layout->addWidget(
            wrapped("<p><b>" + tr("Calibrated with profile %1").arg(q(x.calibration).toHtmlEscaped()) + "</b><br>" +
                        (x.calibrated.empty() ? tr("None of its values feeds this figure: it comes from the defaults.")
                                              : tr("These values replace the defaults here:")) +
                        "</p>" + (items.isEmpty() ? QString() : "<ul>" + items + "</ul>"),
                    this, "explainCalibration"));
    }
    if (!x.prices.empty()) {
        // A dollar figure's prices, per GPU model, with where each comes from (catalog preset,
        // the scenario's own price, ownership); they change in the scenario's pricing.
        QString items;
        for (const calc::PriceUsed& price : x.prices)
            items += "<li>" + q(calc::priceText(price)).toHtmlEscaped() + "</li>";
        layout->addWidget(
            wrapped("<p><b>" + tr("GPU prices it uses") + "</b></p><ul>" + items + "</ul>", this, "explainPrices"));
    }
    if (x.assumptions.empty() && x.prices.empty())
        layout->addWidget(wrapped("<p><b>" + tr("Assumptions it rests on") + "</b><br>" +
                                      tr("None: the calculation read no registered assumption for this value.") +
                                      "</p>",
                                  this, "explainNoAssumptions"));
    if (!x.assumptions.empty()) {
        // Only what the calculation read for this value (calc::assumptionsBehindKpi): each knob
        // here feeds it. Its label, value and unit; the key for the scenario file beside it.
        auto* box = new QGroupBox(tr("Assumptions it rests on (editable; sources in docs/model-reference.md)"), this);
        box->setObjectName("explainAssumptions");
        auto* form = new QFormLayout(box);
        for (const std::string& key : x.assumptions) {
            const Assumption* a = findAssumption(key);
            if (!a)
                continue;
            auto* field = new QDoubleSpinBox(box);
            field->setObjectName(q("assumption-" + key));
            field->setDecimals(a->maxValue - a->minValue < 10 ? 3 : 1);
            field->setRange(a->minValue, a->maxValue);
            field->setSuffix(" " + q(a->unit));
            const double value = assumptionValue(assumptions, key);
            field->setValue(value);
            field->setToolTip(q(a->description + "\n\nSource: " + a->source));
            mInitial[key] = field->value();
            auto* label = new QLabel(q(a->label).toHtmlEscaped() + " <small><code>" + q(key) + "</code></small>", box);
            label->setObjectName(q("assumptionLabel-" + key));
            label->setTextFormat(Qt::RichText);
            label->setToolTip(field->toolTip());
            label->setBuddy(field);
            form->addRow(label, field);
            mFields.push_back({key, field});
            connect(field, &QDoubleSpinBox::valueChanged, this, [this] { mApply->setEnabled(!patches().empty()); });
        }
        mApply = new QPushButton(tr("Apply Assumptions"), box);
        mApply->setObjectName("explainApply");
        mApply->setEnabled(false);
        connect(mApply, &QPushButton::clicked, this, [this] {
            Q_EMIT assumptionsChanged(patches());
            for (const auto& [key, field] : mFields)
                mInitial[key] = field->value();
            mApply->setEnabled(false);
        });
        form->addRow(mApply);
        layout->addWidget(box);
    }
    if (!x.errorBand.empty())
        layout->addWidget(wrapped("<p><b>" + tr("How far off the model is known to be") + "</b><br>" +
                                      q(x.errorBand).toHtmlEscaped() + "</p>",
                                  this, "explainErrorBand"));
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::close);
    layout->addWidget(buttons);
    setAttribute(Qt::WA_DeleteOnClose);
    resize(620, sizeHint().height());
}

std::vector<document::FieldPatch> ExplainDialog::patches() const
{
    std::vector<document::FieldPatch> out;
    for (const auto& [key, field] : mFields)
        if (std::abs(field->value() - mInitial.at(key)) > 1e-12)
            out.push_back({"assumptions." + key, QJsonValue(field->value())});
    return out;
}

} // namespace gp::ui
