// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include <QTextBrowser>
#include <QUrl>

#include <functional>

namespace gp::ui {

/// The user guide and the documents it links to, read as Markdown from one folder (the installed
/// share/doc/gpuplan, or docs/ in a source tree): images from that folder, a link to another page
/// opens it there (at its heading, GitHub's anchor names), a link within the page scrolls to the
/// heading, and a web link goes to the system's browser. Qt's own link handling would load a
/// Markdown link as an empty page; this keeps every link in hand.
class GuideBrowser : public QTextBrowser
{
    Q_OBJECT

public:
    explicit GuideBrowser(const QString& folder, QWidget* parent = nullptr);

    /// Shows `page` (a file name in the folder) at the heading `fragment`; false, with the page
    /// shown before kept, when it cannot be read.
    bool openPage(const QString& page, const QString& fragment = {});
    /// Follows a link as a click on it does.
    void follow(const QUrl& link);
    /// The page shown ("user-guide.md").
    QString page() const { return mPage; }
    /// Where web links go (the system's browser by default; tests record them instead).
    void setExternalOpener(std::function<void(const QUrl&)> open) { mOpenExternal = std::move(open); }
    /// GitHub's anchor of a heading: lower case, letters, digits, '-' and '_' kept, spaces to '-'.
    static QString anchorOf(const QString& heading);

Q_SIGNALS:
    /// Something worth saying in the status line (a link to a page that is not there).
    void message(const QString& text);

private:
    /// Scrolls so that the heading whose anchor is `fragment` is at the top; false if none.
    bool scrollToHeading(const QString& fragment);

    QString mFolder;
    QString mPage;
    std::function<void(const QUrl&)> mOpenExternal;
};

} // namespace gp::ui
