// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "connectdialog.h"

#include "store/serveraddress.h"

#include <QApplication>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QVBoxLayout>

namespace gp::ui {

namespace {
constexpr const char* kProfilesKey = "teamLibrary/profiles";
}

std::vector<std::pair<QString, QString>> ConnectDialog::profiles()
{
    std::vector<std::pair<QString, QString>> out;
    for (const QVariant& v : QSettings().value(kProfilesKey).toList()) {
        const QVariantMap m = v.toMap();
        out.emplace_back(m.value("name").toString(), m.value("address").toString());
    }
    return out;
}

ConnectDialog::ConnectDialog(QWidget* parent)
    : QDialog(parent), mProfiles(new QComboBox(this)), mName(new QLineEdit(this)), mAddress(new QLineEdit(this)),
      mStatus(new QLabel(this))
{
    setObjectName("connectDialog");
    setWindowTitle(tr("Connect to Team Library"));
    auto* layout = new QVBoxLayout(this);
    auto* intro =
        new QLabel(tr("A team library lives on a PostgreSQL server. Its address is "
                      "<tt>postgresql://user@host:port/dbname</tt>; a password is never kept here — put it in "
                      "~/.pgpass or a service file, or type it when asked (kept until gpuplan closes)."),
                   this);
    intro->setWordWrap(true);
    layout->addWidget(intro);
    auto* form = new QFormLayout;
    mProfiles->setObjectName("ConnectProfiles");
    mName->setObjectName("ConnectName");
    mAddress->setObjectName("ConnectAddress");
    mAddress->setPlaceholderText("postgresql://alice@db.example.com:5432/gpuplan");
    form->addRow(tr("Profile"), mProfiles);
    form->addRow(tr("Name"), mName);
    form->addRow(tr("Address"), mAddress);
    layout->addLayout(form);
    auto* profileButtons = new QHBoxLayout;
    auto* save = new QPushButton(tr("Save Profile"), this);
    save->setObjectName("ConnectSaveProfile");
    auto* remove = new QPushButton(tr("Delete Profile"), this);
    remove->setObjectName("ConnectDeleteProfile");
    profileButtons->addWidget(save);
    profileButtons->addWidget(remove);
    profileButtons->addStretch();
    layout->addLayout(profileButtons);
    mStatus->setObjectName("ConnectStatus");
    mStatus->setWordWrap(true);
    layout->addWidget(mStatus);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    QPushButton* connectButton = buttons->addButton(tr("&Connect"), QDialogButtonBox::AcceptRole);
    connectButton->setObjectName("ConnectButton");
    connectButton->setDefault(true);
    layout->addWidget(buttons);
    connect(save, &QPushButton::clicked, this, &ConnectDialog::saveProfile);
    connect(remove, &QPushButton::clicked, this, &ConnectDialog::deleteProfile);
    connect(connectButton, &QPushButton::clicked, this, &ConnectDialog::connectNow);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(mProfiles, &QComboBox::currentIndexChanged, this, [this](int i) {
        const auto all = profiles();
        if (i >= 0 && i < static_cast<int>(all.size())) {
            mName->setText(all[static_cast<std::size_t>(i)].first);
            mAddress->setText(all[static_cast<std::size_t>(i)].second);
        }
    });
    reloadProfiles();
    resize(620, 300);
}

void ConnectDialog::reloadProfiles(const QString& select)
{
    const QSignalBlocker quiet(mProfiles);
    mProfiles->clear();
    int current = 0;
    const auto all = profiles();
    for (std::size_t i = 0; i < all.size(); ++i) {
        mProfiles->addItem(all[i].first);
        if (all[i].first == select)
            current = static_cast<int>(i);
    }
    if (!all.empty()) {
        mProfiles->setCurrentIndex(current);
        mName->setText(all[static_cast<std::size_t>(current)].first);
        mAddress->setText(all[static_cast<std::size_t>(current)].second);
    }
}

void ConnectDialog::saveProfile()
{
    const QString name = mName->text().trimmed(), address = mAddress->text().trimmed();
    if (name.isEmpty()) {
        mStatus->setText(tr("Give the profile a name."));
        return;
    }
    if (const auto parsed = store::parseServerAddress(address); !parsed) { // never a password in QSettings
        mStatus->setText(QString::fromStdString(parsed.errorText()).toHtmlEscaped());
        return;
    }
    QVariantList list;
    for (const auto& [n, a] : profiles())
        if (n != name)
            list << QVariantMap{{"name", n}, {"address", a}};
    list << QVariantMap{{"name", name}, {"address", address}};
    QSettings().setValue(kProfilesKey, list);
    reloadProfiles(name);
    mStatus->setText(tr("Saved the profile '%1'.").arg(name.toHtmlEscaped()));
}

void ConnectDialog::deleteProfile()
{
    QVariantList list;
    for (const auto& [n, a] : profiles())
        if (n != mName->text().trimmed())
            list << QVariantMap{{"name", n}, {"address", a}};
    QSettings().setValue(kProfilesKey, list);
    reloadProfiles();
}

void ConnectDialog::connectNow()
{
    const QString address = mAddress->text().trimmed();
    mStatus->setText(tr("Connecting…"));
    QApplication::setOverrideCursor(Qt::WaitCursor);
    auto opened = store::ScenarioLibrary::openServer(address);
    QApplication::restoreOverrideCursor();
    // libpq found no password: ask, and keep it in memory only.
    while (!opened && (opened.errorText().find("password") != std::string::npos)) {
        bool ok = false;
        const QString password = QInputDialog::getText(
            this, tr("Password"),
            tr("%1\n\nPassword for %2:").arg(QString::fromStdString(opened.errorText()), address.section('?', 0, 0)),
            QLineEdit::Password, {}, &ok);
        if (!ok)
            break;
        QApplication::setOverrideCursor(Qt::WaitCursor);
        opened = store::ScenarioLibrary::openServer(address, password);
        QApplication::restoreOverrideCursor();
    }
    if (!opened) {
        mStatus->setText(QString::fromStdString(opened.errorText()).toHtmlEscaped());
        return;
    }
    mLibrary = std::move(*opened);
    accept();
}

} // namespace gp::ui
