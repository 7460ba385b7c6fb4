// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "calibratedialog.h"

#include "document/commands.h"
#include "document/document.h"
#include "document/librarygateway.h"
#include "io/calibrationprofileio.h"
#include "io/filewriter.h"
#include "io/jsonfile.h"
#include "io/measurementsio.h"
#include "ui/workbench.h"

#include <QDateTime>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

#include <cmath>

namespace gp::ui {

namespace {

QString pct(double fraction) { return QString::number(100.0 * fraction, 'f', 1) + " %"; }
QString pct(const std::optional<double>& f) { return f ? pct(*f) : QStringLiteral("—"); }
QString num(double v) { return QString::number(v, 'g', 4); }
QString num(const std::optional<double>& v) { return v ? num(*v) : QStringLiteral("—"); }

QTableWidget* table(const QStringList& headers, const char* name, QWidget* parent)
{
    auto* t = new QTableWidget(0, int(headers.size()), parent);
    t->setObjectName(name);
    t->setHorizontalHeaderLabels(headers);
    t->setEditTriggers(QAbstractItemView::NoEditTriggers);
    t->setSelectionBehavior(QAbstractItemView::SelectRows);
    t->verticalHeader()->hide();
    t->horizontalHeader()->setStretchLastSection(true);
    return t;
}

void setRow(QTableWidget* t, int row, const QStringList& cells)
{
    for (int c = 0; c < cells.size(); ++c)
        t->setItem(row, c, new QTableWidgetItem(cells[c]));
}

} // namespace

CalibrateDialog::CalibrateDialog(Workbench& workbench, QWidget* parent) : QDialog(parent), mWorkbench(workbench)
{
    setObjectName("calibrateDialog");
    setWindowTitle(tr("Calibrate the Plan's Model"));
    auto* layout = new QVBoxLayout(this);
    auto* intro = new QLabel(tr("Fits the parameters the measurements constrain (GEMM and memory-bound efficiency, "
                                "collectives, overheads, sharing constants) by bounded least squares, with "
                                "held-out error by cross-validation (docs/calibration.md)."),
                             this);
    intro->setWordWrap(true);
    layout->addWidget(intro);

    auto* form = new QFormLayout;
    auto* fileRow = new QHBoxLayout;
    mFile = new QLineEdit(this);
    mFile->setObjectName("calibrateFile");
    mFile->setPlaceholderText(tr("a measurements file (gpuplan-cli import-measurements writes one)"));
    auto* browse = new QPushButton(tr("Browse…"), this);
    browse->setObjectName("calibrateBrowse");
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString f = QFileDialog::getOpenFileName(this, tr("Measurements"), mFile->text(), tr("JSON (*.json)"));
        if (!f.isEmpty())
            mFile->setText(f);
    });
    fileRow->addWidget(mFile, 1);
    fileRow->addWidget(browse);
    // A row of two widgets gets no buddy by itself (its '&' would be drawn): the field is it.
    auto* fileLabel = new QLabel(tr("&Measurements:"), this);
    fileLabel->setBuddy(mFile);
    form->addRow(fileLabel, fileRow);
    mParams = new QLineEdit(this);
    mParams->setObjectName("calibrateParams");
    mParams->setPlaceholderText(tr("every candidate; or keys, names or scopes, comma-separated"));
    form->addRow(tr("&Parameters:"), mParams);
    mFolds = new QSpinBox(this);
    mFolds->setObjectName("calibrateFolds");
    mFolds->setRange(0, 50);
    mFolds->setValue(5);
    mFolds->setSpecialValueText(tr("none"));
    form->addRow(tr("Cross-validation &folds:"), mFolds);
    mName = new QLineEdit(this);
    mName->setObjectName("calibrateName");
    mName->setPlaceholderText(tr("CLUSTER/STACK"));
    form->addRow(tr("Profile &name:"), mName);
    layout->addLayout(form);

    auto* runRow = new QHBoxLayout;
    mRun = new QPushButton(tr("&Calibrate"), this);
    mRun->setObjectName("calibrateRun");
    mCancel = new QPushButton(tr("Cancel Fit"), this);
    mCancel->setObjectName("calibrateCancel");
    mCancel->setEnabled(false);
    mBusy = new QProgressBar(this);
    mBusy->setRange(0, 0);
    mBusy->setVisible(false);
    mStatus = new QLabel(this);
    mStatus->setObjectName("calibrateStatus");
    mStatus->setWordWrap(true);
    runRow->addWidget(mRun);
    runRow->addWidget(mCancel);
    runRow->addWidget(mBusy);
    runRow->addWidget(mStatus, 1);
    layout->addLayout(runRow);
    connect(mRun, &QPushButton::clicked, this, &CalibrateDialog::calibrate);
    connect(mCancel, &QPushButton::clicked, this, &CalibrateDialog::cancel);

    mSummary = new QLabel(this);
    mSummary->setObjectName("calibrateSummary");
    mSummary->setWordWrap(true);
    mSummary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(mSummary);
    auto* split = new QSplitter(Qt::Vertical, this);
    mParameters = table({tr("Parameter"), tr("Default"), tr("Fitted"), tr("±"), tr("Fitted or why not")},
                        "calibrateParameters", split);
    mMeasurements =
        table({tr("Measurement"), tr("Job"), tr("Quantity"), tr("Measured"), tr("Before"), tr("After"), tr("Held out")},
              "calibrateMeasurements", split);
    layout->addWidget(split, 1);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    mUse = buttons->addButton(tr("&Use for This Scenario"), QDialogButtonBox::ActionRole);
    mUse->setObjectName("calibrateUse");
    mSave = buttons->addButton(tr("&Save to Library"), QDialogButtonBox::ActionRole);
    mSave->setObjectName("calibrateSave");
    mExport = buttons->addButton(tr("&Export…"), QDialogButtonBox::ActionRole);
    mExport->setObjectName("calibrateExport");
    for (QPushButton* b : {mUse, mSave, mExport})
        b->setEnabled(false);
    connect(mUse, &QPushButton::clicked, this, &CalibrateDialog::useForScenario);
    connect(mSave, &QPushButton::clicked, this, &CalibrateDialog::saveToLibrary);
    connect(mExport, &QPushButton::clicked, this, [this] {
        const QString f = QFileDialog::getSaveFileName(this, tr("Export Profile"), {}, tr("JSON (*.json)"));
        if (!f.isEmpty())
            exportProfile(f);
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &CalibrateDialog::reject);
    layout->addWidget(buttons);
}

CalibrateDialog::~CalibrateDialog() = default;

void CalibrateDialog::showStatus(const QString& text, bool error)
{
    mStatus->setStyleSheet(error ? "color: #b00020" : "");
    mStatus->setText(text);
}

void CalibrateDialog::setBusy(bool busy)
{
    mRun->setEnabled(!busy);
    mCancel->setEnabled(busy);
    mBusy->setVisible(busy);
    const bool profile = !busy && mResult && mResult->ok();
    for (QPushButton* b : {mUse, mSave, mExport})
        b->setEnabled(profile);
}

bool CalibrateDialog::calibrate()
{
    if (running())
        return false;
    const document::Document* doc = mWorkbench.document();
    if (!doc) {
        showStatus(tr("Open a plan first: the measurements name its jobs."), true);
        return false;
    }
    const QString file = mFile->text().trimmed();
    if (file.isEmpty()) {
        showStatus(tr("Name a measurements file."), true);
        return false;
    }
    // The file is read here (small: a few MB at most) so that its problems show before any fit.
    Issues issues;
    const auto bytes = io::readFileBytes(file, issues);
    MeasurementSet set;
    if (bytes)
        set = io::readMeasurements(*bytes, issues);
    if (hasErrors(issues)) {
        QStringList lines;
        for (const Issue& i : issues)
            if (lines.size() < 8)
                lines << file + ": " + QString::fromStdString(i.toString());
        showStatus(tr("Nothing was fitted:\n%1").arg(lines.join('\n')), true);
        return false;
    }
    study::CalibrationOptions options;
    for (const QString& s : mParams->text().split(',', Qt::SkipEmptyParts))
        options.params.push_back(s.trimmed().toStdString());
    options.folds = mFolds->value();
    options.name = mName->text().trimmed().toStdString();
    options.author = qEnvironmentVariable("USER").toStdString();
    options.createdAt = QDateTime::currentDateTimeUtc().toString(Qt::ISODate).toStdString();
    options.measurementsDigest = io::measurementsDigest(set);
    mResult.reset();
    mCancelled = false;
    setBusy(true);
    showStatus(tr("Fitting %n measurement(s)…", nullptr, int(set.items.size())));
    // The work owns what it reads: the window (and its catalog) may close while it runs.
    mRunner.start([scenario = doc->scenario(), catalog = mWorkbench.catalog(), set = std::move(set),
                   options](const std::atomic<bool>& stop) mutable {
        options.stop = &stop;
        return study::calibrate(scenario, catalog, set, options);
    });
    return true;
}

void CalibrateDialog::cancel()
{
    if (!running())
        return;
    mCancelled = true;
    mRunner.stop();
    showStatus(tr("Cancelling…"));
}

void CalibrateDialog::reject()
{
    cancel();
    QDialog::reject();
}

void CalibrateDialog::planReplaced()
{
    mRunner.supersede();
    mResult.reset();
    for (QTableWidget* t : {mParameters, mMeasurements}) {
        t->clearContents();
        t->setRowCount(0);
    }
    mSummary->clear();
    setBusy(false);
    showStatus(tr("Another plan is open: calibrate it again."));
}

void CalibrateDialog::finished(std::optional<study::CalibrationResult> result)
{
    if (!result) { // superseded: another plan is open
        setBusy(false);
        return;
    }
    mResult = std::move(result);
    setBusy(false);
    showResult(*mResult);
    if (mCancelled && !mResult->ok())
        showStatus(tr("Cancelled: nothing was fitted."));
    else if (!mResult->ok())
        showStatus(QString::fromStdString(mResult->error), true);
    else
        showStatus(tr("Fitted profile '%1': use it for this scenario, save it to the library or export it.")
                       .arg(QString::fromStdString(mResult->profile->name)));
}

void CalibrateDialog::showResult(const study::CalibrationResult& r)
{
    QString summary =
        tr("Mean |error| on the fitted measurements: %1 → %2").arg(pct(r.meanAbsErrorBefore), pct(r.meanAbsErrorAfter));
    if (r.heldOutErrorBefore)
        summary +=
            tr("; held out (%1 folds): %2 → %3").arg(r.folds).arg(pct(r.heldOutErrorBefore), pct(r.heldOutErrorAfter));
    summary += tr(". %1 iterations, %2 evaluations; %3.")
                   .arg(r.iterations)
                   .arg(r.evaluations)
                   .arg(QString::fromStdString(r.convergence.empty() ? r.error : r.convergence));
    for (const Issue& i : r.issues)
        summary += "\n" + QString::fromStdString(i.toString());
    mSummary->setText(summary);
    mParameters->setRowCount(int(r.parameters.size()));
    for (std::size_t i = 0; i < r.parameters.size(); ++i) {
        const study::FittedParameter& p = r.parameters[i];
        setRow(mParameters, int(i),
               {QString::fromStdString(p.parameter.key), num(p.parameter.defaultValue),
                p.fitted ? num(p.value) : QStringLiteral("—"), num(p.stdError),
                p.fitted ? (p.atBound ? tr("fitted, at its bound") : tr("fitted")) : QString::fromStdString(p.why)});
    }
    mMeasurements->setRowCount(int(r.measurements.size()));
    for (std::size_t i = 0; i < r.measurements.size(); ++i) {
        const study::MeasurementFit& m = r.measurements[i];
        const auto err = [&](const std::optional<double>& v) {
            return v ? num(*v) + " (" + pct(*v / m.measurement.value - 1.0) + ")" : QString::fromStdString(m.why);
        };
        setRow(mMeasurements, int(i),
               {QString::fromStdString(m.measurement.source), QString::fromStdString(m.measurement.jobId),
                QString::fromStdString(std::string(quantityName(m.measurement.quantity))), num(m.measurement.value),
                err(m.before), err(m.after), m.heldOut ? err(m.heldOut) : QStringLiteral("—")});
    }
    for (QTableWidget* t : {mParameters, mMeasurements})
        t->resizeColumnsToContents();
}

bool CalibrateDialog::useForScenario()
{
    if (!mResult || !mResult->ok() || !mWorkbench.editable())
        return false;
    Scenario after = mWorkbench.document()->scenario();
    after.calibration = *mResult->profile;
    const bool done =
        mWorkbench.push(document::changeScenario(mWorkbench.document()->scenario(), mWorkbench.catalog(), after,
                                                 "Use calibration profile " + profileLabel(*mResult->profile)),
                        tr("Cannot use the profile"), this);
    if (done)
        showStatus(tr("The scenario is evaluated with profile %1 now (Edit > Undo takes it back).")
                       .arg(QString::fromStdString(profileLabel(*mResult->profile))));
    return done;
}

bool CalibrateDialog::saveToLibrary()
{
    if (!mResult || !mResult->ok())
        return false;
    const Result<int> version = document::saveCalibrationProfile(mWorkbench.library(), *mResult->profile);
    if (!version) {
        showStatus(tr("Not saved: %1").arg(QString::fromStdString(version.errorText())), true);
        return false;
    }
    mResult->profile->version = *version;
    showStatus(
        tr("Saved to the library as %1 version %2.").arg(QString::fromStdString(mResult->profile->name)).arg(*version));
    return true;
}

bool CalibrateDialog::exportProfile(const QString& file)
{
    if (!mResult || !mResult->ok())
        return false;
    const Status written = io::writeFileAtomically(file, io::profileToJson(*mResult->profile));
    if (!written) {
        showStatus(tr("Not written: %1").arg(QString::fromStdString(written.errorText())), true);
        return false;
    }
    showStatus(tr("Written to %1.").arg(file));
    return true;
}

} // namespace gp::ui
