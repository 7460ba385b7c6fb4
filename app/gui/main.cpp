// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// gpuplan: the workbench. Opens the scenario library (seeded with the samples on first
// start) and the first scenario in it.
#include "document/librarygateway.h"
#include "document/threadhandoff.h"
#include "io/catalogreader.h"
#include "io/datapaths.h"
#include "io/filewriter.h"
#include "ui/canvas/canvasscene.h"
#include "ui/library/librarycontroller.h"
#include "ui/library/recoverycontroller.h"
#include "ui/mainwindow.h"
#include "ui/welcomepanel.h"

#include <QApplication>
#include <QBuffer>
#include <QCommandLineParser>
#include <QDir>
#include <QMessageBox>
#include <QScreen>
#include <QStyle>
#include <QStyleFactory>
#include <QTimer>

#include <cstdio>

namespace {

/// A Fusion dark palette (what KDE's Breeze Dark and GNOME's Adwaita-dark look like).
QPalette darkPalette()
{
    QPalette p;
    const QColor window(45, 45, 48), base(30, 30, 32), text(230, 230, 230), disabled(127, 127, 127);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, window);
    p.setColor(QPalette::ToolTipBase, base);
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, window);
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::BrightText, Qt::red);
    p.setColor(QPalette::Highlight, QColor(61, 174, 233));
    p.setColor(QPalette::HighlightedText, Qt::black);
    p.setColor(QPalette::Link, QColor(61, 174, 233));
    p.setColor(QPalette::PlaceholderText, disabled);
    for (auto role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
        p.setColor(QPalette::Disabled, role, disabled);
    return p;
}

/// A reason the workbench cannot start: on stderr always, and in a message box where someone
/// can read it (not on the offscreen platform of tests and scripts, where it would wait forever).
int refuseToStart(const QString& text)
{
    std::fprintf(stderr, "gpuplan: %s\n", qPrintable(text));
    if (QGuiApplication::platformName() != "offscreen" && QGuiApplication::platformName() != "minimal")
        QMessageBox::critical(nullptr, QObject::tr("gpuplan"), text);
    return 1;
}

} // namespace

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    QApplication::setApplicationName("gpuplan");
    QApplication::setApplicationVersion(GPUPLAN_VERSION);
    QApplication::setDesktopFileName("org.gpuplan.gpuplan");

    QCommandLineParser parser;
    parser.setApplicationDescription("gpuplan: capacity planning for shared GPU clusters.");
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addOption({"db",
                      "Scenario library: a file (default: library.sqlite in the app-data folder), or a team library "
                      "postgresql://user@host:port/dbname (docs/team-library.md).",
                      "PATH|URL"});
    parser.addOption({"catalog", "User catalog merged over the bundled one.", "PATH"});
    parser.addOption({"screenshot", "Save a picture of the window to FILE and quit (for docs and checks).", "FILE"});
    parser.addOption({"scenario", "Open this library scenario (its id, as gpuplan-cli library list shows).", "ID"});
    parser.addOption({"select", "Select these canvas items (comma-separated ids) after opening.", "IDS"});
    parser.addOption(
        {"show", "Raise this dock or results tab after opening (e.g. Results, \"Completion times\").", "NAME"});
    parser.addOption({"palette", "light or dark instead of the system's palette.", "NAME"});
    parser.process(app);
    if (parser.isSet("palette")) {
        const QString name = parser.value("palette");
        if (name != "light" && name != "dark") {
            std::fprintf(stderr, "gpuplan: --palette takes light or dark, not '%s'\n", qPrintable(name));
            return 2;
        }
        QApplication::setStyle(QStyleFactory::create("Fusion"));
        QApplication::setPalette(name == "dark" ? darkPalette() : QApplication::style()->standardPalette());
    }

    const QString userCatalog = parser.isSet("catalog") ? parser.value("catalog") : gp::io::defaultUserCatalogPath();
    auto cat = gp::io::loadCatalog(gp::io::bundledDataDir(), userCatalog);
    if (!cat.ok()) {
        QStringList lines;
        for (const auto& i : cat.issues)
            if (i.isError())
                lines << QString::fromStdString(i.toString());
        return refuseToStart(
            QObject::tr("The hardware catalog cannot be loaded:\n\n%1").arg(lines.mid(0, 20).join('\n')));
    }
    const bool defaultDb = !parser.isSet("db");
    const QString dbPath = defaultDb ? gp::io::defaultLibraryPath() : parser.value("db");
    auto library = gp::document::openLibrary(
        dbPath, *cat, defaultDb ? QDir(gp::io::bundledDataDir()).absoluteFilePath("samples") : QString());
    if (!library)
        return refuseToStart(QObject::tr("The scenario library cannot be opened:\n\n%1")
                                 .arg(QString::fromStdString(library.errorText())));

    // Every background job and the parts of the searches and the Monte Carlo share one pool.
    gp::document::installThreadPool();
    gp::ui::MainWindow window(std::move(*cat.value), std::move(*library));
    window.show();
    if (!parser.isSet("scenario") || !window.files()->openFromLibrary(parser.value("scenario").toLongLong()))
        window.files()->openFirst();
    window.recovery()->offerRecovery(); // autosaved work a crashed or killed session left behind
    if (!parser.isSet("scenario") && !parser.isSet("screenshot") && gp::ui::WelcomePanel::showAtStart())
        window.showWelcome();
    // Once the window has its layout (the docks size after the first show).
    QTimer::singleShot(200, &window, [&window, &parser] {
        if (parser.isSet("select"))
            window.canvasScene()->setSelectedIds(parser.value("select").split(',', Qt::SkipEmptyParts));
        if (parser.isSet("show"))
            window.raisePanel(parser.value("show"));
    });

    if (parser.isSet("screenshot")) {
        const QString file = parser.value("screenshot");
        QTimer::singleShot(800, &window, [&window, file] {
            // Through the one writer like every export: never half a picture at `file`.
            QByteArray png;
            QBuffer buffer(&png);
            const bool drawn = buffer.open(QIODevice::WriteOnly) && window.grab().save(&buffer, "PNG");
            const gp::Status written = drawn ? gp::io::writeFileAtomically(file, png)
                                             : gp::failure(file.toStdString(), "cannot draw the window");
            if (!written)
                std::fprintf(stderr, "gpuplan: %s\n", written.errorText().c_str());
            QApplication::exit(written ? 0 : 1);
        });
    }
    return QApplication::exec();
}
