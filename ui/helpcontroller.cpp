// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "helpcontroller.h"

#include "guidebrowser.h"
#include "io/datapaths.h"

#include <QAction>
#include <QApplication>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFile>
#include <QFileInfo>
#include <QHeaderView>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QStatusBar>
#include <QTableWidget>
#include <QVBoxLayout>

#include <functional>

namespace gp::ui {

namespace {

/// A non-modal dialog over `window` with `content` and a Close button.
QDialog* dialogWith(QWidget* window, const QString& name, const QString& title, QWidget* content, QSize size)
{
    auto* dialog = new QDialog(window);
    dialog->setObjectName(name);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(title);
    auto* layout = new QVBoxLayout(dialog);
    content->setParent(dialog);
    layout->addWidget(content);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, dialog);
    QObject::connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::close);
    layout->addWidget(buttons);
    dialog->resize(size.boundedTo(window->size()));
    dialog->show();
    return dialog;
}

/// "&Edit" → "Edit", "Save Re&vision with Note…" → "Save Revision with Note…".
QString plain(QString text) { return text.remove('&'); }

} // namespace

HelpController::HelpController(QMainWindow* window) : QObject(window), mWindow(window) {}

void HelpController::addHelpActions(QMenu* help)
{
    help->addAction(tr("&User Guide"), this, [this] { showUserGuide(); })->setShortcut(QKeySequence::HelpContents);
    help->addAction(tr("&Keyboard Shortcuts"), this, [this] { showShortcuts(); })
        ->setShortcut(QKeySequence(tr("Ctrl+/")));
    help->addSeparator();
    help->addAction(tr("&About gpuplan"), this, [this] {
        QMessageBox::about(mWindow, tr("About gpuplan"),
                           tr("<b>gpuplan %1</b><p>Capacity planning for shared GPU clusters that train, "
                              "fine-tune and serve large language models.</p>")
                               .arg(QApplication::applicationVersion()));
    });
}

QDialog* HelpController::showUserGuide()
{
    QFile file(io::userGuidePath());
    if (file.fileName().isEmpty() || !file.open(QIODevice::ReadOnly)) {
        QMessageBox::warning(mWindow, tr("User Guide"),
                             tr("The user guide is not installed here (looked for share/doc/gpuplan/user-guide.md "
                                "next to the program)."));
        return nullptr;
    }
    const QFileInfo guide(file.fileName());
    auto* browser = new GuideBrowser(guide.absolutePath());
    browser->setObjectName("userGuide");
    browser->openPage(guide.fileName());
    connect(browser, &GuideBrowser::message, mWindow->statusBar(),
            [this](const QString& text) { mWindow->statusBar()->showMessage(text, 8000); });
    return dialogWith(mWindow, "userGuideDialog", tr("gpuplan User Guide"), browser, QSize(900, 800));
}

QDialog* HelpController::showShortcuts()
{
    auto* table = new QTableWidget(0, 3);
    table->setObjectName("shortcutTable");
    table->setHorizontalHeaderLabels({tr("Menu"), tr("Command"), tr("Shortcut")});
    table->verticalHeader()->hide();
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->horizontalHeader()->setSectionResizeMode(1, QHeaderView::Stretch);
    // Every menu action with a shortcut, in menu order (submenus under their menu's name).
    std::function<void(const QString&, const QMenu*)> walk = [&](const QString& menu, const QMenu* m) {
        for (QAction* a : m->actions()) {
            if (a->menu()) {
                walk(menu, a->menu());
                continue;
            }
            if (a->shortcut().isEmpty())
                continue;
            const int row = table->rowCount();
            table->insertRow(row);
            table->setItem(row, 0, new QTableWidgetItem(menu));
            table->setItem(row, 1, new QTableWidgetItem(plain(a->text())));
            table->setItem(row, 2, new QTableWidgetItem(a->shortcut().toString(QKeySequence::NativeText)));
        }
    };
    for (QAction* top : mWindow->menuBar()->actions())
        if (top->menu())
            walk(plain(top->text()), top->menu());
    table->resizeColumnsToContents();
    table->horizontalHeader()->setSectionResizeMode(1, QHeaderView::Stretch);
    return dialogWith(mWindow, "shortcutsDialog", tr("Keyboard Shortcuts"), table, QSize(640, 600));
}

} // namespace gp::ui
