// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

// A workbench window on a library seeded with the bundled samples, for the GUI tests.
#include "document/librarygateway.h"
#include "document/threadhandoff.h"
#include "testsupport.h"
#include "ui/canvas/canvaseditor.h"
#include "ui/canvas/canvasscene.h"
#include "ui/canvas/canvasview.h"
#include "ui/edit/editcontroller.h"
#include "ui/library/librarycontroller.h"
#include "ui/library/recoverycontroller.h"
#include "ui/mainwindow.h"
#include "ui/results/exportcontroller.h"

#include <QApplication>
#include <QDir>
#include <QTest>

#include <memory>

namespace gp::test {

/// `file` is the library's path; tests that delete scenarios give their own.
inline std::unique_ptr<ui::MainWindow> makeWindow(const QString& file)
{
    document::installThreadPool(); // as the workbench's main() does
    auto lib = document::openLibrary(file, bundledCatalog(), QDir(dataDir()).absoluteFilePath("samples"));
    if (!lib)
        qFatal("%s", lib.errorText().c_str());
    return std::make_unique<ui::MainWindow>(bundledCatalog(), std::move(*lib));
}

/// The first sample, open in a shown and active 1600×1000 window, its canvas at 1:1 centred on
/// the item `centre`, so that the points a test clicks are on screen.
inline std::unique_ptr<ui::MainWindow> openSampleAtOneToOne(const QString& file, const QString& centre)
{
    auto w = makeWindow(file);
    w->resize(1600, 1000);
    w->show();
    w->files()->openFirst();
    if (!QTest::qWaitForWindowExposed(w.get()))
        qFatal("the window is not shown");
    QApplication::setActiveWindow(w.get());
    ui::CanvasView* view = w->canvasView();
    view->stopAutoFit();
    view->resetTransform();
    view->centerOn(w->canvasScene()->item(centre)->sceneBoundingRect().center());
    return w;
}

/// The id of the library scenario called `name` in the library at `file`, or 0.
inline qint64 libraryScenarioId(const QString& file, const QString& name)
{
    auto all = (*document::openLibrary(file, bundledCatalog(), {}))->list();
    for (const auto& s : *all)
        if (s.name == name)
            return s.id;
    return 0;
}

/// The library scenario called `name` (a sample), open in a shown and active 1600×1000 window.
inline std::unique_ptr<ui::MainWindow> openLibraryScenario(const QString& file, const QString& name)
{
    auto w = makeWindow(file);
    w->resize(1600, 1000);
    w->show();
    if (!QTest::qWaitForWindowExposed(w.get()))
        qFatal("the window is not shown");
    QApplication::setActiveWindow(w.get());
    const qint64 id = libraryScenarioId(file, name);
    if (!id || !w->files()->openFromLibrary(id))
        qFatal("cannot open %s", qPrintable(name));
    return w;
}

} // namespace gp::test
