// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// Help > User Guide (issue 36): the guide shows its pictures and follows its links — to another
// page of the docs, to a heading of it, to the web — without blanking the window, as a user
// clicks them.
#include "testsupport.h"
#include "ui/guidebrowser.h"
#include "ui/mainwindow.h"
#include "windowfixture.h"

#include <QApplication>
#include <QDialog>
#include <QImage>
#include <QPixmap>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBlock>
#include <QTextDocument>

using namespace gp;

namespace {

/// The first link of the page shown whose target satisfies `wanted`, as (position, target).
std::pair<int, QString> findLink(const QTextDocument* doc, const std::function<bool(const QString&)>& wanted)
{
    for (QTextBlock b = doc->begin(); b.isValid(); b = b.next())
        for (auto it = b.begin(); !it.atEnd(); ++it) {
            const QTextFragment f = it.fragment();
            if (f.charFormat().isAnchor() && wanted(f.charFormat().anchorHref()))
                return {f.position() + f.length() / 2, f.charFormat().anchorHref()};
        }
    return {-1, {}};
}

/// Clicks the text at `position` of the browser, scrolled into view first.
void clickAt(ui::GuideBrowser* browser, int position)
{
    QTextCursor c(browser->document());
    c.setPosition(position);
    browser->setTextCursor(c);
    browser->ensureCursorVisible();
    QTest::mouseClick(browser->viewport(), Qt::LeftButton, {}, browser->cursorRect(c).center());
}

} // namespace

class TestUserGuide : public QObject
{
    Q_OBJECT

    QTemporaryDir mTmp;

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void theGuideShowsItsPicturesAndFollowsItsLinks()
    {
        auto w = test::makeWindow(mTmp.filePath("lib.sqlite"));
        w->resize(1366, 768);
        w->show();
        w->files()->openFirst();
        QVERIFY(QTest::qWaitForWindowExposed(w.get()));
        QApplication::setActiveWindow(w.get());
        QTest::keyClick(w.get(), Qt::Key_F1);
        auto* dialog = w->findChild<QDialog*>("userGuideDialog");
        QVERIFY(dialog && dialog->isVisible());
        auto* guide = dialog->findChild<ui::GuideBrowser*>("userGuide");
        QVERIFY(guide);
        QCOMPARE(guide->page(), QString("user-guide.md"));

        // Every picture of the guide loads (it showed broken-image boxes).
        int pictures = 0;
        for (QTextBlock b = guide->document()->begin(); b.isValid(); b = b.next())
            for (auto it = b.begin(); !it.atEnd(); ++it)
                if (const QTextFormat f = it.fragment().charFormat(); f.isImageFormat()) {
                    const QString name = f.toImageFormat().name();
                    const QVariant image = guide->loadResource(QTextDocument::ImageResource, QUrl(name));
                    const QImage decoded = image.typeId() == QMetaType::QByteArray
                                               ? QImage::fromData(image.toByteArray())
                                               : image.value<QImage>();
                    QVERIFY2(!decoded.isNull(), qPrintable(name));
                    ++pictures;
                }
        QVERIFY(pictures >= 5);

        // A link to another page opens it in the guide (Qt's own handling showed an empty page).
        const auto [toWorkbench, href] =
            findLink(guide->document(), [](const QString& h) { return h == "workbench.md"; });
        QVERIFY(toWorkbench >= 0);
        clickAt(guide, toWorkbench);
        QTRY_COMPARE(guide->page(), QString("workbench.md"));
        QVERIFY(guide->toPlainText().size() > 1000);

        // A link to a heading of a page opens it there.
        const auto [toHeading, target] =
            findLink(guide->document(), [](const QString& h) { return h.contains(".md#") && !h.startsWith("http"); });
        QVERIFY2(toHeading >= 0, "workbench.md links to a heading of another page");
        clickAt(guide, toHeading);
        const QString page = target.section('#', 0, 0), heading = target.section('#', 1);
        QTRY_COMPARE(guide->page(), page);
        QVERIFY(guide->verticalScrollBar()->value() > 0);
        QCOMPARE(ui::GuideBrowser::anchorOf(guide->textCursor().block().text()), heading);

        // A web link (the docs have none to click today) goes to the system's browser, and the
        // page stays; a link to a page that is not installed says so and keeps the page.
        QUrl opened;
        guide->setExternalOpener([&opened](const QUrl& url) { opened = url; });
        guide->follow(QUrl("https://docs.nvidia.com/datacenter/tesla/mig-user-guide/"));
        QCOMPARE(opened.host(), QString("docs.nvidia.com"));
        QCOMPARE(guide->page(), page);
        QSignalSpy said(guide, &ui::GuideBrowser::message);
        guide->follow(QUrl("nowhere.md"));
        QCOMPARE(said.size(), 1);
        QCOMPARE(guide->page(), page);
        QVERIFY(guide->toPlainText().size() > 1000);
        QCOMPARE(ui::GuideBrowser::anchorOf("Interference (`core/calc/interference.cpp`)"),
                 QString("interference-corecalcinterferencecpp"));
    }
};

QTEST_MAIN(TestUserGuide)
#include "tst_userguide.moc"
