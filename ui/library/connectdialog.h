// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "store/scenariolibrary.h"

#include <QDialog>

#include <memory>

class QComboBox;
class QLabel;
class QLineEdit;

namespace gp::ui {

/// File > Connect to Team Library…: connection profiles (a name and a
/// `postgresql://user@host:port/dbname` address, kept in QSettings — never a password) and
/// Connect. When the server wants a password that libpq did not find (~/.pgpass, a service file),
/// the dialog asks for it; it is kept in memory for this program's run only.
class ConnectDialog : public QDialog
{
    Q_OBJECT

public:
    explicit ConnectDialog(QWidget* parent = nullptr);

    /// The library connected to (after Connect succeeded), handed over once.
    std::unique_ptr<store::ScenarioLibrary> takeLibrary() { return std::move(mLibrary); }

    /// The profiles kept in QSettings: name → address.
    static std::vector<std::pair<QString, QString>> profiles();

    /// Connects to the address in the dialog (the Connect button); on success accepts.
    void connectNow();

private:
    void saveProfile();
    void deleteProfile();
    void reloadProfiles(const QString& select = {});

    QComboBox* mProfiles;
    QLineEdit* mName;
    QLineEdit* mAddress;
    QLabel* mStatus;
    std::unique_ptr<store::ScenarioLibrary> mLibrary;
};

} // namespace gp::ui
