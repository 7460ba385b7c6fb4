// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "planvsmeasureddialog.h"

#include "io/filewriter.h"
#include "io/measurementsio.h"

#include "planvsmeasuredtables.h"

#include "study/timetext.h"
#include "ui/figures/planvsmeasuredpage.h"

#include <QDateTime>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFrame>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableWidget>
#include <QTimeZone>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <utility>

namespace gp::ui {

namespace {

QLineEdit* pvmLineEdit(const QString& objectName, const QString& placeholder, QWidget* parent)
{
    auto* e = new QLineEdit(parent);
    e->setObjectName(objectName);
    e->setPlaceholderText(placeholder);
    return e;
}

/// A label naming its field, so that its mnemonic works and its '&' is not drawn.
QLabel* pvmCaption(const QString& text, QWidget* buddy, QWidget* parent)
{
    auto* l = new QLabel(text, parent);
    l->setBuddy(buddy);
    return l;
}

QString pvmNowUtc() { return QDateTime::currentDateTimeUtc().toString("yyyy-MM-dd HH:mm 'UTC'"); }

} // namespace

PlanVsMeasuredDialog::PlanVsMeasuredDialog(const Catalog& catalog, std::function<const Scenario*()> scenario,
                                           QWidget* parent)
    : QDialog(parent), mCatalog(catalog), mScenario(std::move(scenario))
{
    setWindowTitle(tr("Plan vs Measured"));
    setObjectName("PlanVsMeasuredDialog");
    auto* layout = new QVBoxLayout(this);
    auto* intro = new QLabel(tr("The open plan beside what its cluster measured: dcgm-exporter's series in "
                                "Prometheus over a range, or a measurements file of benchmark figures. "
                                "Differences beyond the threshold are flagged with the model parameter that would "
                                "explain them. The plan is only read."),
                             this);
    intro->setWordWrap(true);
    layout->addWidget(intro);

    QSettings settings;
    auto* grid = new QGridLayout;
    mUrl = pvmLineEdit("PvmUrl", tr("http://prometheus:9090"), this);
    mUrl->setText(settings.value("planVsMeasured/url").toString());
    mFrom = pvmLineEdit("PvmFrom", tr("2026-12-01T00:00:00Z, now-7d"), this);
    mFrom->setText(settings.value("planVsMeasured/from", "now-1h").toString());
    mTo = pvmLineEdit("PvmTo", tr("now"), this);
    mTo->setText(settings.value("planVsMeasured/to", "now").toString());
    mStep = pvmLineEdit("PvmStep", tr("auto"), this);
    mStep->setToolTip(tr("Resolution of the range query: seconds, or 30s, 5m. Empty: the range ÷ 10,000, at least "
                         "30 s (Prometheus refuses more than 11,000 points a series)."));
    mThreshold = new QDoubleSpinBox(this);
    mThreshold->setObjectName("PvmThreshold");
    mThreshold->setRange(1.0, 1000.0);
    mThreshold->setDecimals(0);
    mThreshold->setSuffix(" %");
    mThreshold->setValue(25.0);
    mThreshold->setToolTip(tr("Flag a figure whose measurement differs from the prediction by more than this share "
                              "of it (and more than the quantity's noise: 1 GiB, 5 % activity, 1 GB/s, 25 W)."));
    mTimeout = new QSpinBox(this);
    mTimeout->setObjectName("PvmTimeout");
    mTimeout->setRange(1, 3600);
    mTimeout->setValue(30);
    mTimeout->setSuffix(" s");
    mMatch = pvmLineEdit("PvmMatch", tr("label matchers, e.g. cluster=\"prod\""), this);
    mMapping = pvmLineEdit("PvmMapping", tr("optional: {\"nodes\": {…}, \"tenants\": {…}, \"jobs\": {…}}"), this);
    auto* browse = new QPushButton(tr("Browse…"), this);
    browse->setObjectName("PvmMappingBrowse");
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString f =
            QFileDialog::getOpenFileName(this, tr("Mapping of the cluster's names"), mMapping->text(), "JSON (*.json)");
        if (!f.isEmpty())
            mMapping->setText(f);
    });
    mThroughput = pvmLineEdit("PvmThroughput", tr("optional PromQL of tokens/s per pod"), this);
    mThroughput->setToolTip(tr("e.g. sum by (namespace, pod) (rate(vllm:generation_tokens_total[5m]))"));

    grid->addWidget(pvmCaption(tr("&Prometheus:"), mUrl, this), 0, 0);
    grid->addWidget(mUrl, 0, 1, 1, 3);
    grid->addWidget(pvmCaption(tr("Ti&meout:"), mTimeout, this), 0, 4);
    grid->addWidget(mTimeout, 0, 5);
    grid->addWidget(pvmCaption(tr("&From:"), mFrom, this), 1, 0);
    grid->addWidget(mFrom, 1, 1);
    grid->addWidget(pvmCaption(tr("&To:"), mTo, this), 1, 2);
    grid->addWidget(mTo, 1, 3);
    grid->addWidget(pvmCaption(tr("St&ep:"), mStep, this), 1, 4);
    grid->addWidget(mStep, 1, 5);
    grid->addWidget(pvmCaption(tr("T&hreshold:"), mThreshold, this), 2, 0);
    grid->addWidget(mThreshold, 2, 1);
    grid->addWidget(pvmCaption(tr("M&atch:"), mMatch, this), 2, 2);
    grid->addWidget(mMatch, 2, 3, 1, 3);
    grid->addWidget(pvmCaption(tr("Ma&pping file:"), mMapping, this), 3, 0);
    auto* mappingRow = new QHBoxLayout;
    mappingRow->addWidget(mMapping, 1);
    mappingRow->addWidget(browse);
    grid->addLayout(mappingRow, 3, 1);
    grid->addWidget(pvmCaption(tr("Th&roughput query:"), mThroughput, this), 3, 2);
    grid->addWidget(mThroughput, 3, 3, 1, 3);
    grid->setColumnStretch(1, 2);
    grid->setColumnStretch(3, 3);
    layout->addLayout(grid);

    auto* actions = new QHBoxLayout;
    mRun = new QPushButton(tr("&Check Plan"), this);
    mRun->setObjectName("PvmRun");
    mRun->setDefault(true);
    mCancel = new QPushButton(tr("Cancel"), this);
    mCancel->setObjectName("PvmCancel");
    mCancel->setEnabled(false);
    mLoad = new QPushButton(tr("&Load Measurements…"), this);
    mLoad->setObjectName("PvmLoadMeasurements");
    mLoad->setToolTip(tr("A measurements file of benchmark figures tied to the plan's jobs (docs/measurements.md)"));
    mSave = new QPushButton(tr("Save as &Measurements…"), this);
    mSave->setObjectName("PvmSaveMeasurements");
    mSave->setToolTip(tr("The jobs' measured memory and tokens/s as a measurements file, to calibrate the plan "
                         "(Results > Calibration > Calibrate…)"));
    mSave->setEnabled(false);
    mBusy = new QProgressBar(this);
    mBusy->setObjectName("PvmBusy");
    mBusy->setRange(0, 0); // running, for as long as it takes
    mBusy->setMaximumWidth(120);
    mBusy->setTextVisible(false);
    mBusy->hide();
    mStatus = new QLabel(this);
    mStatus->setObjectName("PvmStatus");
    mStatus->setWordWrap(true);
    mStatus->setTextInteractionFlags(Qt::TextSelectableByMouse);
    actions->addWidget(mRun);
    actions->addWidget(mCancel);
    actions->addWidget(mLoad);
    actions->addWidget(mSave);
    actions->addWidget(mBusy);
    actions->addWidget(mStatus, 1);
    layout->addLayout(actions);

    // Shown once the plan is edited after a comparison: what is in the tables compared an earlier plan.
    mStale = new QFrame(this);
    mStale->setObjectName("PvmStale");
    mStale->setStyleSheet("#PvmStale { background: #fff4ce; border: 1px solid #e0b000; border-radius: 3px; }");
    auto* staleRow = new QHBoxLayout(mStale);
    staleRow->setContentsMargins(8, 4, 8, 4);
    auto* staleText = new QLabel(tr("The plan changed since this comparison — Refresh compares the plan as it is "
                                    "now, with the same Prometheus, range and options."),
                                 mStale);
    staleText->setObjectName("PvmStaleText");
    staleText->setWordWrap(true);
    mRefresh = new QPushButton(tr("Refre&sh"), mStale);
    mRefresh->setObjectName("PvmRefresh");
    staleRow->addWidget(staleText, 1);
    staleRow->addWidget(mRefresh);
    mStale->hide();
    layout->addWidget(mStale);

    const QStringList headers{tr("Job"),      tr("Quantity"),   tr("Predicted"),
                              tr("Measured"), tr("Difference"), tr("Would explain it / note")};
    mTabs = new QTabWidget(this);
    mTabs->setObjectName("PvmTabs");
    mJobs = pvm::makeTable("PvmJobs", headers, mTabs);
    QStringList gpuHeaders = headers;
    gpuHeaders[0] = tr("GPU (host/index)");
    mGpus = pvm::makeTable("PvmGpus", gpuHeaders, mTabs);
    mUnmatched = new QPlainTextEdit(mTabs);
    mUnmatched->setObjectName("PvmUnmatched");
    mUnmatched->setReadOnly(true);
    QStringList measuredHeaders = headers;
    measuredHeaders[5] = tr("Would explain it / why no figure");
    mMeasured = pvm::makeTable("PvmMeasurements", measuredHeaders, mTabs);
    mTabs->addTab(mJobs, tr("Jobs"));
    mTabs->addTab(mGpus, tr("GPUs"));
    mTabs->addTab(mUnmatched, tr("Not matched"));
    mTabs->addTab(mMeasured, tr("Measurements file"));
    layout->addWidget(mTabs, 1);
    mDetails = new QLabel(tr("Select a row to read all of it; a job's row selects the job in Workloads and on the "
                             "canvas."),
                          this);
    mDetails->setObjectName("PvmDetails");
    mDetails->setWordWrap(true);
    mDetails->setTextInteractionFlags(Qt::TextSelectableByMouse);
    mDetails->setMinimumHeight(mDetails->fontMetrics().lineSpacing() * 3);
    mDetails->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    layout->addWidget(mDetails);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);

    connect(mRun, &QPushButton::clicked, this, &PlanVsMeasuredDialog::check);
    connect(mCancel, &QPushButton::clicked, this, &PlanVsMeasuredDialog::cancel);
    connect(mRefresh, &QPushButton::clicked, this, &PlanVsMeasuredDialog::refresh);
    connect(mLoad, &QPushButton::clicked, this, [this] {
        const QString f = QFileDialog::getOpenFileName(this, tr("Load Measurements"), {}, tr("Measurements (*.json)"));
        if (!f.isEmpty())
            loadMeasurements(f);
    });
    connect(mSave, &QPushButton::clicked, this, [this] {
        const QString f =
            QFileDialog::getSaveFileName(this, tr("Save as Measurements"), {}, tr("Measurements (*.json)"));
        if (!f.isEmpty())
            saveMeasurements(f);
    });
    for (QTableWidget* t : {mJobs, mGpus, mMeasured})
        connect(t, &QTableWidget::itemSelectionChanged, this, [this, t] { showDetails(t); });
    // The line under the tables is about the tab shown.
    connect(mTabs, &QTabWidget::currentChanged, this, [this] {
        if (auto* t = qobject_cast<QTableWidget*>(mTabs->currentWidget()); t && !t->selectedItems().isEmpty())
            showDetails(t);
        else
            mDetails->clear();
    });
    setMinimumSize(640, 420);
}

PlanVsMeasuredDialog::~PlanVsMeasuredDialog() = default;

void PlanVsMeasuredDialog::showError(const QString& text)
{
    mStatus->setStyleSheet("color: #b00020");
    mStatus->setText(text);
}

void PlanVsMeasuredDialog::showStatus(const QString& text)
{
    mStatus->setStyleSheet({});
    mStatus->setText(text);
}

bool PlanVsMeasuredDialog::saveMeasurements(const QString& file)
{
    const Scenario* open = mScenario();
    if (!mTelemetry || !open)
        return false;
    const MeasurementSet set = study::telemetryMeasurements(*mTelemetry, open->name);
    if (set.items.empty()) {
        showError(tr("No job's memory or tokens/s was measured on its own series: nothing to save."));
        return false;
    }
    const Status written = io::writeFileAtomically(file, io::measurementsToJson(set));
    if (!written) {
        showError(tr("Not saved: %1").arg(QString::fromStdString(written.errorText())));
        return false;
    }
    showStatus(tr("%n measurement(s) saved to %1: Results > Calibration > Calibrate… fits the plan to them.", nullptr,
                  int(set.items.size()))
                   .arg(file));
    return true;
}

void PlanVsMeasuredDialog::setBusy(bool busy, const QString& what)
{
    mRun->setEnabled(!busy);
    mLoad->setEnabled(!busy);
    mSave->setEnabled(!busy && mTelemetry.has_value());
    mCancel->setEnabled(busy);
    mRefresh->setEnabled(!busy);
    mBusy->setVisible(busy);
    if (busy)
        showStatus(what);
}

bool PlanVsMeasuredDialog::check()
{
    if (running())
        return false;
    const Scenario* open = mScenario();
    if (!open) {
        showError(tr("Open a plan first: its jobs and GPUs are what the telemetry is compared with."));
        return false;
    }
    const QUrl url(mUrl->text().trimmed());
    if (!url.isValid() || (url.scheme() != "http" && url.scheme() != "https") || url.host().isEmpty()) {
        showError(tr("Prometheus: '%1' is not an http:// or https:// address (e.g. http://prometheus:9090).")
                      .arg(mUrl->text().trimmed()));
        mUrl->setFocus();
        return false;
    }
    const double nowS = static_cast<double>(QDateTime::currentMSecsSinceEpoch()) / 1000.0;
    const auto from = study::timeFromText(mFrom->text(), nowS);
    const auto to = study::timeFromText(mTo->text().trimmed().isEmpty() ? "now" : mTo->text(), nowS);
    if (!from || !to) {
        showError(tr("%1: '%2' is not a time (2026-12-01T00:00:00Z, Unix seconds, now, now-7d).")
                      .arg(!from ? tr("From") : tr("To"), !from ? mFrom->text() : mTo->text()));
        (!from ? mFrom : mTo)->setFocus();
        return false;
    }
    if (*to <= *from) {
        showError(tr("To must be after From."));
        mTo->setFocus();
        return false;
    }
    double step = std::max(30.0, std::ceil((*to - *from) / 10000.0));
    if (!mStep->text().trimmed().isEmpty()) {
        const auto s = study::durationFromText(mStep->text());
        if (!s || *s <= 0) {
            showError(tr("Step: '%1' is not a positive duration (60, 30s, 5m).").arg(mStep->text()));
            mStep->setFocus();
            return false;
        }
        step = *s;
    }
    study::PlanCheckRequest request;
    if (!mMapping->text().trimmed().isEmpty()) {
        QString why;
        auto m = study::readTelemetryMapping(mMapping->text().trimmed(), &why);
        if (!m) {
            showError(tr("Mapping file: %1").arg(why));
            mMapping->setFocus();
            return false;
        }
        request.mapping = std::move(*m);
    }
    request.telemetry.url = url;
    request.telemetry.fromS = *from;
    request.telemetry.toS = *to;
    request.telemetry.stepS = step;
    request.telemetry.timeoutMs = mTimeout->value() * 1000;
    request.telemetry.selector = mMatch->text().trimmed();
    request.threshold = mThreshold->value() / 100.0;
    request.throughputQuery = mThroughput->text().trimmed();
    QSettings settings;
    settings.setValue("planVsMeasured/url", mUrl->text().trimmed());
    settings.setValue("planVsMeasured/from", mFrom->text().trimmed());
    settings.setValue("planVsMeasured/to", mTo->text().trimmed());

    const QString where = url.toString(QUrl::RemoveUserInfo | QUrl::StripTrailingSlash);
    pvm::ComparisonAsk ask;
    ask.request = std::move(request);
    mRefreshing = false;
    start(std::move(ask), tr("Querying %1 for DCGM series… (up to %2 s)").arg(where).arg(mTimeout->value()));
    return true;
}

bool PlanVsMeasuredDialog::loadMeasurements(const QString& file)
{
    if (running())
        return false;
    if (!mScenario()) {
        showError(tr("Open a plan first: the measurements name its jobs."));
        return false;
    }
    pvm::ComparisonAsk ask;
    ask.file = file;
    ask.threshold = mThreshold->value() / 100.0;
    mRefreshing = false;
    start(std::move(ask), tr("Reading %1…").arg(QFileInfo(file).fileName()));
    return true;
}

bool PlanVsMeasuredDialog::refresh()
{
    if (running() || !mScenario())
        return false;
    pvm::ComparisonAsk ask;
    if (mTelemetry && mTelemetryAsked)
        ask.request = mTelemetryAsked;
    if (mMeasurements && !mMeasurementsFile.isEmpty()) {
        ask.file = mMeasurementsFile;
        ask.threshold = mMeasurementsThreshold;
    }
    if (!ask.request && ask.file.isEmpty())
        return false;
    mRefreshing = true;
    start(std::move(ask), tr("Comparing the plan as it is now…"));
    return true;
}

void PlanVsMeasuredDialog::start(pvm::ComparisonAsk ask, const QString& what)
{
    mCancelled = false;
    mEditedDuringRun = false;
    setBusy(true, what);
    mRunner.start([scenario = *mScenario(), catalog = mCatalog, ask = std::move(ask)](const std::atomic<bool>& stop) {
        return pvm::runComparison(scenario, catalog, ask, stop);
    });
}

void PlanVsMeasuredDialog::cancel()
{
    if (!running())
        return;
    mCancelled = true;
    mRunner.stop();
    showStatus(tr("Cancelling…"));
}

void PlanVsMeasuredDialog::reject()
{
    cancel(); // a closed view waits for nothing
    QDialog::reject();
}

void PlanVsMeasuredDialog::planReplaced()
{
    mRunner.supersede();
    mTelemetry.reset();
    mMeasurements.reset();
    mSave->setEnabled(false);
    mTelemetryStale = mMeasurementsStale = mEditedDuringRun = false;
    showStale();
    for (QTableWidget* t : {mJobs, mGpus, mMeasured}) {
        t->clearContents();
        t->setRowCount(0);
    }
    mUnmatched->clear();
    showStatus(tr("Another plan is open: check it again."));
}

void PlanVsMeasuredDialog::planEdited(const document::Changes& changes)
{
    if (document::onlyMoves(changes)) // positions change nothing compared
        return;
    if (running())
        mEditedDuringRun = true; // it compares the plan as it was when it started
    const bool wasStale = stale();
    mTelemetryStale = mTelemetryStale || mTelemetry.has_value();
    mMeasurementsStale = mMeasurementsStale || mMeasurements.has_value();
    showStale();
    if (stale() && !wasStale)
        publish(); // the report says so too
}

void PlanVsMeasuredDialog::showStale() { mStale->setVisible(stale()); }

void PlanVsMeasuredDialog::finished(std::optional<pvm::ComparisonOutcome> outcome)
{
    setBusy(false);
    if (!outcome) // superseded: another plan is open
        return;
    if (mCancelled) {
        showStatus(tr("Cancelled: nothing was compared."));
        return;
    }
    QStringList said, errors;
    bool compared = false;
    if (outcome->asked.request && takeTelemetry(*outcome, said, errors)) {
        mTelemetryStale = mEditedDuringRun;
        compared = true;
    }
    if (!outcome->asked.file.isEmpty() && takeMeasurements(*outcome, said, errors)) {
        mMeasurementsStale = mEditedDuringRun;
        compared = true;
    }
    mEditedDuringRun = false;
    mSave->setEnabled(mTelemetry.has_value());
    if (errors.isEmpty())
        showStatus(said.join('\n'));
    else
        showError((said + errors).join('\n'));
    showStale();
    if (compared) {
        mWhen = pvmNowUtc();
        publish();
    }
}

/// The telemetry part of `o`: shown and true, or why not in `errors` (the last results stay).
bool PlanVsMeasuredDialog::takeTelemetry(const pvm::ComparisonOutcome& o, QStringList& said, QStringList& errors)
{
    const study::PlanCheck& c = *o.check;
    if (c.error) {
        if (c.error->kind == telemetry::FetchFailure::Cancelled)
            said << tr("Cancelled: nothing was compared.");
        else
            errors << c.error->text();
        return false;
    }
    if (c.noDcgmSeries) {
        errors << tr("%1 has no DCGM series in this range (query: %2): is dcgm-exporter scraped by this "
                     "Prometheus, and are the range and Match right?")
                      .arg(c.url, c.query);
        return false;
    }
    mTelemetry = c.result;
    mTelemetryAsked = o.asked.request;
    showTelemetry();
    const study::PlanVsMeasured& r = *mTelemetry;
    const QString summary = tr("%1 series: %2 job(s) and %3 GPU(s) compared, %4 figure(s) flagged beyond %5 %.")
                                .arg(r.seriesCount)
                                .arg(r.jobs.size())
                                .arg(r.gpus.size())
                                .arg(r.flagged)
                                .arg(r.threshold * 100.0, 0, 'g', 4);
    if (r.jobs.empty())
        errors << summary + " " +
                      tr("No series is attributed to a job of the plan: %1 carry no pod label, %2 pod(s) name no job "
                         "(see Not matched; a mapping file names what differs).")
                          .arg(r.seriesWithoutPod)
                          .arg(r.podsWithoutJob.size());
    else
        said << summary;
    return true;
}

/// The measurements part of `o`: shown and true, or why not in `errors`.
bool PlanVsMeasuredDialog::takeMeasurements(pvm::ComparisonOutcome& o, QStringList& said, QStringList& errors)
{
    if (!o.measurements) {
        errors << tr("No measurement could be read:\n%1").arg(o.problems);
        return false;
    }
    mMeasurements = std::move(o.measurements);
    mMeasurementsFile = o.asked.file;
    mMeasurementsThreshold = o.asked.threshold;
    showMeasurements();
    if (!o.problems.isEmpty())
        errors << tr("%1 measurement(s) compared, %2 flagged; some were left out:\n%3")
                      .arg(mMeasurements->rows.size())
                      .arg(mMeasurements->flagged)
                      .arg(o.problems);
    else
        said << tr("%1 measurement(s) from %2: %3 flagged, %4 without a figure of the plan.")
                    .arg(mMeasurements->rows.size())
                    .arg(QString::fromStdString(mMeasurements->source))
                    .arg(mMeasurements->flagged)
                    .arg(std::count_if(mMeasurements->rows.begin(), mMeasurements->rows.end(),
                                       [](const auto& x) { return !x.predicted; }));
    return true;
}

void PlanVsMeasuredDialog::showTelemetry()
{
    const study::PlanVsMeasured& r = *mTelemetry;
    pvm::fillJobs(mJobs, r);
    pvm::fillGpus(mGpus, r);
    mUnmatched->setPlainText(pvm::unmatchedText(r));
    const int unmatched =
        static_cast<int>(r.jobsNotMeasured.size() + r.podsWithoutJob.size() + r.hostsNotInPlan.size());
    mTabs->setTabText(2, unmatched > 0 ? tr("Not matched (%1)").arg(unmatched) : tr("Not matched"));
    if (!mRefreshing)
        mTabs->setCurrentWidget(mJobs);
}

void PlanVsMeasuredDialog::showMeasurements()
{
    pvm::fillMeasurements(mMeasured, *mMeasurements);
    if (!mRefreshing)
        mTabs->setCurrentWidget(mMeasured);
}

void PlanVsMeasuredDialog::showDetails(QTableWidget* table)
{
    const QList<QTableWidgetItem*> items = table->selectedItems();
    if (items.isEmpty())
        return;
    const int row = items.front()->row();
    mDetails->setText(table->item(row, 0)->data(pvm::kDetailsRole).toString());
    const QString id = table->item(row, 0)->data(Qt::UserRole).toString();
    if (id.isEmpty())
        return;
    if (table == mGpus)
        Q_EMIT nodeChosen(id);
    else
        Q_EMIT jobChosen(id);
}

void PlanVsMeasuredDialog::publish()
{
    auto c = std::make_shared<MeasuredComparison>();
    c->telemetry = mTelemetry;
    c->measurements = mMeasurements;
    c->when = mWhen;
    c->planEditedSince = stale();
    Q_EMIT compared(c);
}

} // namespace gp::ui
