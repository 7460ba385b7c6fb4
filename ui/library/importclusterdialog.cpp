// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "importclusterdialog.h"

#include "io/clusterimport.h"
#include "io/jsonfile.h"
#include "study/clustercapture.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QStackedWidget>
#include <QVBoxLayout>

namespace gp::ui {

namespace {

constexpr int kImportTimeoutMs = 60000;

QString importIssuesText(const Issues& issues, std::size_t max = 12)
{
    QStringList lines;
    for (const Issue& i : issues)
        if (i.isError() && static_cast<std::size_t>(lines.size()) < max)
            lines << QString::fromStdString(i.toString());
    return lines.join('\n');
}

} // namespace

ImportClusterDialog::ImportClusterDialog(const Catalog& catalog, QWidget* parent) : QDialog(parent), mCatalog(catalog)
{
    setWindowTitle(tr("Import Cluster"));
    setObjectName("ImportClusterDialog");
    auto* layout = new QVBoxLayout(this);
    auto* intro = new QLabel(tr("Read a running cluster into a new scenario: its GPU nodes and how their GPUs are "
                                "shared, and the pods or jobs holding GPUs as tenants and jobs. What the cluster "
                                "does not say — each job's model, kind and parallelism — is left as a placeholder "
                                "that validation names until you set it."),
                             this);
    intro->setWordWrap(true);
    layout->addWidget(intro);

    auto* form = new QFormLayout;
    mSource = new QComboBox(this);
    mSource->setObjectName("ImportSource");
    mSource->addItem(tr("Kubernetes: kubectl JSON file"), int(Source::KubernetesFile));
    mSource->addItem(tr("Kubernetes: live cluster (kubeconfig)"), int(Source::KubernetesLive));
    mSource->addItem(tr("Slurm: sinfo/squeue or scontrol output"), int(Source::SlurmFiles));
    mSource->addItem(tr("Slurm: this computer's Slurm"), int(Source::SlurmLive));
    form->addRow(tr("&Source:"), mSource);
    layout->addLayout(form);

    mPages = new QStackedWidget(this);
    auto* kubePage = new QWidget(mPages);
    new QFormLayout(kubePage);
    mKubeFile = fileField("ImportKubernetesFile", tr("kubectl get nodes,pods -A -o json > cluster.json"), kubePage,
                          tr("&File:"));
    auto* livePage = new QWidget(mPages);
    new QFormLayout(livePage);
    mKubeconfig = fileField("ImportKubeconfig", tr("default: ~/.kube/config"), livePage, tr("&Kubeconfig:"));
    mContext = new QLineEdit(livePage);
    mContext->setObjectName("ImportContext");
    mContext->setPlaceholderText(tr("default: the current context"));
    static_cast<QFormLayout*>(livePage->layout())->addRow(tr("&Context:"), mContext);
    auto* slurmPage = new QWidget(mPages);
    new QFormLayout(slurmPage);
    mSlurmNodes =
        fileField("ImportSlurmNodes", tr("sinfo --json, or scontrol show nodes --oneliner"), slurmPage, tr("&Nodes:"));
    mSlurmJobs =
        fileField("ImportSlurmJobs", tr("squeue --json, or scontrol show jobs --oneliner"), slurmPage, tr("&Jobs:"));
    auto* slurmLivePage = new QWidget(mPages);
    auto* slurmLiveLayout = new QVBoxLayout(slurmLivePage);
    auto* slurmLiveText = new QLabel(tr("Runs sinfo and squeue (--json where this Slurm has it, scontrol otherwise) "
                                        "on this computer."),
                                     slurmLivePage);
    slurmLiveText->setWordWrap(true);
    slurmLiveLayout->addWidget(slurmLiveText);
    for (QWidget* page : {kubePage, livePage, slurmPage, slurmLivePage})
        mPages->addWidget(page);
    layout->addWidget(mPages);

    auto* options = new QFormLayout;
    auto* tenantRow = new QHBoxLayout;
    mTenants = new QComboBox(this);
    mTenants->setObjectName("ImportTenants");
    mTenantLabel = new QLineEdit(this);
    mTenantLabel->setObjectName("ImportTenantLabel");
    mTenantLabel->setPlaceholderText(tr("pod label, e.g. team"));
    tenantRow->addWidget(mTenants);
    tenantRow->addWidget(mTenantLabel, 1);
    // A row of several widgets gets no buddy from the form: its label names the first one, so
    // that the label's mnemonic works and its '&' is not drawn.
    auto* tenantsLabel = new QLabel(tr("&Tenants by:"), this);
    tenantsLabel->setBuddy(mTenants);
    options->addRow(tenantsLabel, tenantRow);
    mGpuMap = new QLineEdit(this);
    mGpuMap->setObjectName("ImportGpuMap");
    mGpuMap->setPlaceholderText(tr("product=catalog GPU, …  e.g. h100=h100-80gb"));
    mGpuMap->setToolTip(tr("Which catalog GPU a product string of the cluster is, where gpuplan cannot tell "
                           "(a Slurm GRES type such as h100, a GPU not in the bundled catalog)."));
    options->addRow(tr("&GPU names:"), mGpuMap);
    mName = new QLineEdit(this);
    mName->setObjectName("ImportName");
    mName->setPlaceholderText(tr("Imported cluster"));
    options->addRow(tr("Scenario &name:"), mName);
    layout->addLayout(options);

    mMessage = new QLabel(this);
    mMessage->setObjectName("ImportMessage");
    mMessage->setWordWrap(true);
    mMessage->setTextInteractionFlags(Qt::TextSelectableByMouse);
    mMessage->setStyleSheet("color: #b00020");
    mBusy = new QProgressBar(this);
    mBusy->setObjectName("ImportBusy");
    mBusy->setRange(0, 0); // reading, for as long as the cluster's tools take
    mBusy->setTextVisible(false);
    mBusy->hide();
    layout->addWidget(mMessage);
    layout->addWidget(mBusy);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    mCancel = buttons->button(QDialogButtonBox::Cancel);
    mCancel->setObjectName("ImportCancel");
    mImport = buttons->addButton(tr("&Import"), QDialogButtonBox::AcceptRole);
    mImport->setObjectName("ImportButton");
    mImport->setDefault(true);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(mImport, &QPushButton::clicked, this, &ImportClusterDialog::runImport);
    layout->addWidget(buttons);

    connect(mSource, &QComboBox::currentIndexChanged, this, &ImportClusterDialog::sourceChanged);
    connect(mTenants, &QComboBox::currentIndexChanged, this,
            [this] { mTenantLabel->setVisible(mTenants->currentData().toString() == "label"); });
    sourceChanged();
    setMinimumWidth(560);
}

ImportClusterDialog::~ImportClusterDialog() = default;

void ImportClusterDialog::setBusy(bool busy)
{
    mBusy->setVisible(busy);
    mImport->setEnabled(!busy);
    for (QWidget* w : std::initializer_list<QWidget*>{mSource, mPages, mTenants, mTenantLabel, mGpuMap, mName})
        w->setEnabled(!busy);
    mMessage->setStyleSheet(busy ? QString() : QString("color: #b00020"));
}

void ImportClusterDialog::cancel()
{
    if (!running())
        return;
    mCancelled = true;
    mRunner.stop();
    mMessage->setText(tr("Stopping…"));
}

void ImportClusterDialog::reject()
{
    if (running()) { // Cancel and Esc stop the reading first; the next one closes
        cancel();
        return;
    }
    QDialog::reject();
}

QLineEdit* ImportClusterDialog::fileField(const QString& objectName, const QString& placeholder, QWidget* page,
                                          const QString& label)
{
    auto* row = new QHBoxLayout;
    auto* edit = new QLineEdit(page);
    edit->setObjectName(objectName);
    edit->setPlaceholderText(placeholder);
    auto* browse = new QPushButton(tr("Browse…"), page);
    browse->setObjectName(objectName + "Browse");
    connect(browse, &QPushButton::clicked, this, [this, edit] {
        const QString f = QFileDialog::getOpenFileName(this, tr("Choose a file"), edit->text());
        if (!f.isEmpty())
            edit->setText(f);
    });
    row->addWidget(edit, 1);
    row->addWidget(browse);
    auto* caption = new QLabel(label, page); // a row layout gets no buddy from the form
    caption->setBuddy(edit);
    static_cast<QFormLayout*>(page->layout())->addRow(caption, row);
    return edit;
}

void ImportClusterDialog::sourceChanged()
{
    const auto source = static_cast<Source>(mSource->currentData().toInt());
    mPages->setCurrentIndex(mSource->currentIndex());
    const bool kube = source == Source::KubernetesFile || source == Source::KubernetesLive;
    mTenants->blockSignals(true);
    mTenants->clear();
    if (kube) {
        mTenants->addItem(tr("Namespace"), "namespace");
        mTenants->addItem(tr("Pod label"), "label");
    } else {
        mTenants->addItem(tr("Account"), "account");
        mTenants->addItem(tr("User"), "user");
    }
    mTenants->blockSignals(false);
    mTenantLabel->setVisible(false);
    mMessage->clear();
}

bool ImportClusterDialog::runImport()
{
    if (running())
        return false;
    mMessage->clear();
    mScenario.reset();
    const auto source = static_cast<Source>(mSource->currentData().toInt());
    io::ClusterImportOptions options;
    options.name = mName->text().trimmed().toStdString();
    const QString tenants = mTenants->currentData().toString();
    if (tenants == "label") {
        options.tenantLabel = mTenantLabel->text().trimmed().toStdString();
        if (options.tenantLabel.empty()) {
            mMessage->setText(tr("Name the pod label that says each pod's tenant, or group tenants by namespace."));
            return false;
        }
    }
    options.slurmTenantByUser = tenants == "user";
    for (const QString& pair : mGpuMap->text().split(',', Qt::SkipEmptyParts)) {
        const auto eq = pair.lastIndexOf('=');
        if (eq <= 0 || eq == pair.trimmed().size() - 1) {
            mMessage->setText(tr("GPU names: '%1' must be product=catalog GPU id.").arg(pair.trimmed()));
            return false;
        }
        options.gpuMap[pair.left(eq).trimmed().toStdString()] = pair.mid(eq + 1).trimmed().toStdString();
    }
    // What the work needs, read from the fields here; the work itself runs on the thread pool.
    const QString kubeFile = mKubeFile->text().trimmed();
    const QString kubeconfig = mKubeconfig->text().trimmed();
    const QString context = mContext->text().trimmed();
    const QString nodesFile = mSlurmNodes->text().trimmed();
    const QString jobsFile = mSlurmJobs->text().trimmed();
    const QString missing = source == Source::KubernetesFile && kubeFile.isEmpty() ? tr("kubectl JSON")
                            : source == Source::SlurmFiles && nodesFile.isEmpty()  ? tr("Slurm nodes")
                            : source == Source::SlurmFiles && jobsFile.isEmpty()   ? tr("Slurm jobs")
                                                                                   : QString();
    if (!missing.isEmpty()) {
        mMessage->setText(tr("Choose the %1 file.").arg(missing));
        return false;
    }
    const Catalog& catalog = mCatalog;
    auto work = [source, kubeFile, kubeconfig, context, nodesFile, jobsFile, options,
                 &catalog](const std::atomic<bool>& stop) {
        Outcome o;
        const auto readFile = [&o](const QString& path) -> std::optional<io::ClusterInput> {
            Issues issues;
            auto bytes = io::readFileBytes(path, issues);
            if (!bytes) {
                inFile(issues, path.toStdString());
                o.message = importIssuesText(issues);
                return std::nullopt;
            }
            return io::ClusterInput{*bytes, path};
        };
        switch (source) {
        case Source::KubernetesFile:
            if (auto in = readFile(kubeFile)) {
                o.scenario = io::importKubernetes(*in, options, catalog);
                o.description = tr("Kubernetes objects in %1").arg(QFileInfo(in->name).fileName());
            }
            break;
        case Source::KubernetesLive: {
            auto in = study::captureKubernetes(kubeconfig, context, kImportTimeoutMs, &stop);
            if (in) {
                o.scenario = io::importKubernetes(*in, options, catalog);
                o.description = tr("the live Kubernetes cluster (%1)").arg(in->name);
            } else
                o.scenario.issues = in.issues;
            break;
        }
        case Source::SlurmFiles: {
            auto nodes = readFile(nodesFile);
            auto jobs = nodes ? readFile(jobsFile) : std::nullopt;
            if (nodes && jobs) {
                o.scenario = io::importSlurm(*nodes, *jobs, options, catalog);
                o.description =
                    tr("Slurm's %1 and %2").arg(QFileInfo(nodes->name).fileName(), QFileInfo(jobs->name).fileName());
            }
            break;
        }
        case Source::SlurmLive: {
            auto in = study::captureSlurm(kImportTimeoutMs, &stop);
            if (in) {
                o.scenario = io::importSlurm(in->first, in->second, options, catalog);
                o.description = tr("this computer's Slurm");
            } else
                o.scenario.issues = in.issues;
            break;
        }
        }
        return o;
    };
    mCancelled = false;
    setBusy(true);
    mMessage->setText(source == Source::KubernetesLive
                          ? tr("Asking the cluster through kubectl… (up to %1 s)").arg(kImportTimeoutMs / 1000)
                      : source == Source::SlurmLive
                          ? tr("Running sinfo and squeue… (up to %1 s each)").arg(kImportTimeoutMs / 1000)
                          : tr("Reading the files…"));
    mRunner.start(std::move(work));
    return true;
}

void ImportClusterDialog::finished(std::optional<Outcome> outcome)
{
    setBusy(false);
    if (!outcome)
        return;
    if (mCancelled) {
        mMessage->setText(tr("Cancelled: nothing was imported."));
        return;
    }
    if (!outcome->message.isEmpty()) {
        mMessage->setText(outcome->message);
        return;
    }
    if (!outcome->scenario) {
        mMessage->setText(tr("Nothing was imported:\n%1").arg(importIssuesText(outcome->scenario.issues)));
        return;
    }
    mScenario = std::move(*outcome->scenario);
    mDescription = outcome->description;
    accept();
}

} // namespace gp::ui
