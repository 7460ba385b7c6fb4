// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "guidebrowser.h"

#include <QAbstractTextDocumentLayout>
#include <QDesktopServices>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QScrollBar>
#include <QTextBlock>

namespace gp::ui {

GuideBrowser::GuideBrowser(const QString& folder, QWidget* parent)
    : QTextBrowser(parent), mFolder(folder), mOpenExternal([](const QUrl& url) { QDesktopServices::openUrl(url); })
{
    setOpenLinks(false); // every link through follow()
    setSearchPaths({folder});
    document()->setBaseUrl(QUrl::fromLocalFile(QDir(folder).absolutePath() + '/'));
    connect(this, &QTextBrowser::anchorClicked, this, &GuideBrowser::follow);
}

bool GuideBrowser::openPage(const QString& page, const QString& fragment)
{
    QFile file(QDir(mFolder).absoluteFilePath(page));
    if (!file.open(QIODevice::ReadOnly)) {
        Q_EMIT message(tr("%1 is not installed with the guide").arg(page));
        return false;
    }
    setMarkdown(QString::fromUtf8(file.readAll()));
    mPage = page;
    if (fragment.isEmpty() || !scrollToHeading(fragment))
        verticalScrollBar()->setValue(0);
    return true;
}

void GuideBrowser::follow(const QUrl& link)
{
    if (!link.scheme().isEmpty() && link.scheme() != QLatin1String("file")) {
        mOpenExternal(link); // https, mailto: the system's browser or mail client
        return;
    }
    const QString path = link.path();
    if (path.isEmpty()) { // "#heading" within the page
        if (!scrollToHeading(link.fragment()))
            Q_EMIT message(tr("No heading \"%1\" in %2").arg(link.fragment(), mPage));
        return;
    }
    const QString name = QDir(mFolder).relativeFilePath(QDir(mFolder).absoluteFilePath(path));
    if (name.endsWith(QLatin1String(".md"), Qt::CaseInsensitive) && !name.startsWith(QLatin1String(".."))) {
        openPage(name, link.fragment());
        return;
    }
    const QString file = QDir(mFolder).absoluteFilePath(path);
    if (QFileInfo::exists(file))
        mOpenExternal(QUrl::fromLocalFile(file)); // a picture or file: its own viewer
    else
        Q_EMIT message(tr("%1 is not installed with the guide").arg(path));
}

QString GuideBrowser::anchorOf(const QString& heading)
{
    QString out;
    for (const QChar c : heading.toLower())
        if (c.isLetterOrNumber() || c == '-' || c == '_')
            out += c;
        else if (c == ' ')
            out += '-';
    return out;
}

bool GuideBrowser::scrollToHeading(const QString& fragment)
{
    for (QTextBlock b = document()->begin(); b.isValid(); b = b.next())
        if (b.blockFormat().headingLevel() > 0 && anchorOf(b.text()) == fragment) {
            setTextCursor(QTextCursor(b));
            const qreal top = document()->documentLayout()->blockBoundingRect(b).top();
            verticalScrollBar()->setValue(static_cast<int>(top));
            return true;
        }
    return false;
}

} // namespace gp::ui
