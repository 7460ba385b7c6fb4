// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "importclusterdialog.h"

#include "io/clusterimport.h"
#include "io/jsonfile.h"
#include "study/clustercapture.h"

#include <QApplication>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
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
    layout->addWidget(mMessage);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    QPushButton* import = buttons->addButton(tr("&Import"), QDialogButtonBox::AcceptRole);
    import->setObjectName("ImportButton");
    import->setDefault(true);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(import, &QPushButton::clicked, this, [this] {
        if (runImport())
            accept();
    });
    layout->addWidget(buttons);

    connect(mSource, &QComboBox::currentIndexChanged, this, &ImportClusterDialog::sourceChanged);
    connect(mTenants, &QComboBox::currentIndexChanged, this,
            [this] { mTenantLabel->setVisible(mTenants->currentData().toString() == "label"); });
    sourceChanged();
    setMinimumWidth(560);
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
    const auto readFile = [this](QLineEdit* edit, const QString& what) -> std::optional<io::ClusterInput> {
        const QString path = edit->text().trimmed();
        if (path.isEmpty()) {
            mMessage->setText(tr("Choose the %1 file.").arg(what));
            return std::nullopt;
        }
        Issues issues;
        auto bytes = io::readFileBytes(path, issues);
        if (!bytes) {
            inFile(issues, path.toStdString());
            mMessage->setText(importIssuesText(issues));
            return std::nullopt;
        }
        return io::ClusterInput{*bytes, path};
    };
    QApplication::setOverrideCursor(Qt::WaitCursor);
    Result<Scenario> r;
    bool read = true;
    switch (source) {
    case Source::KubernetesFile:
        if (auto in = readFile(mKubeFile, tr("kubectl JSON"))) {
            r = io::importKubernetes(*in, options, mCatalog);
            mDescription = tr("Kubernetes objects in %1").arg(QFileInfo(in->name).fileName());
        } else
            read = false;
        break;
    case Source::KubernetesLive: {
        auto in = study::captureKubernetes(mKubeconfig->text().trimmed(), mContext->text().trimmed(), kImportTimeoutMs);
        if (in) {
            r = io::importKubernetes(*in, options, mCatalog);
            mDescription = tr("the live Kubernetes cluster (%1)").arg(in->name);
        } else
            r.issues = in.issues;
        break;
    }
    case Source::SlurmFiles: {
        auto nodes = readFile(mSlurmNodes, tr("Slurm nodes"));
        auto jobs = nodes ? readFile(mSlurmJobs, tr("Slurm jobs")) : std::nullopt;
        if (nodes && jobs) {
            r = io::importSlurm(*nodes, *jobs, options, mCatalog);
            mDescription =
                tr("Slurm's %1 and %2").arg(QFileInfo(nodes->name).fileName(), QFileInfo(jobs->name).fileName());
        } else
            read = false;
        break;
    }
    case Source::SlurmLive: {
        auto in = study::captureSlurm(kImportTimeoutMs);
        if (in) {
            r = io::importSlurm(in->first, in->second, options, mCatalog);
            mDescription = tr("this computer's Slurm");
        } else
            r.issues = in.issues;
        break;
    }
    }
    QApplication::restoreOverrideCursor();
    if (!read)
        return false;
    if (!r) {
        mMessage->setText(tr("Nothing was imported:\n%1").arg(importIssuesText(r.issues)));
        return false;
    }
    mScenario = std::move(*r);
    return true;
}

} // namespace gp::ui
