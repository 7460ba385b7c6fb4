// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include <QFrame>
#include <QPointer>

#include <memory>

class QLabel;
class QPushButton;

namespace gp::store {
class LibraryWatcher;
}

namespace gp::ui {

class LibraryController;
class LibraryPanel;
class Workbench;

/// The live library (docs/team-library.md, "Live library"): when a teammate saves, renames, tags
/// or deletes, the library panel re-reads within a second; when the scenario open here got a
/// newer revision than the one it shows, a non-modal banner above the canvas says who saved which
/// revision when, with Compare (the latest beside the open plan) and Reload (the latest, asking
/// first about unsaved edits, which stay in the autosaved draft).
class LiveLibrary : public QFrame
{
    Q_OBJECT

public:
    LiveLibrary(Workbench& workbench, LibraryPanel* panel, LibraryController* files, QWidget* parent = nullptr);
    ~LiveLibrary() override;

    /// The banner's text ("bob saved revision 7 at 12:03"), empty while hidden.
    QString text() const;
    /// Re-reads the library now, as a notification does.
    void refresh();

private:
    void compare();
    void reload();

    Workbench& mWorkbench;
    LibraryPanel* mPanel;
    LibraryController* mFiles;
    std::unique_ptr<store::LibraryWatcher> mWatcher;
    QLabel* mText;
    QPushButton* mCompare;
    QPushButton* mReload;
    int mShownRevision = 0; ///< the revision the banner is about (0: hidden)
};

} // namespace gp::ui
