// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "livelibrary.h"

#include "librarycontroller.h"
#include "librarypanel.h"
#include "ui/workbench.h"

#include "document/document.h"
#include "document/librarygateway.h"
#include "store/librarywatcher.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QTimer>
#include <QToolButton>

namespace gp::ui {

LiveLibrary::LiveLibrary(Workbench& workbench, LibraryPanel* panel, LibraryController* files, QWidget* parent)
    : QFrame(parent), mWorkbench(workbench), mPanel(panel), mFiles(files),
      mWatcher(std::make_unique<store::LibraryWatcher>(workbench.library().path(), workbench.library().password())),
      mText(new QLabel(this)), mCompare(new QPushButton(tr("Compare"), this)),
      mReload(new QPushButton(tr("Reload"), this))
{
    setObjectName("LiveLibraryBar");
    setFrameShape(QFrame::StyledPanel);
    setStyleSheet("#LiveLibraryBar { background: #e3f0fb; border: 1px solid #4e79a7; border-radius: 4px; }"
                  "#LiveLibraryBar QLabel { color: #1f3b57; }");
    mCompare->setObjectName("liveCompare");
    mReload->setObjectName("liveReload");
    mCompare->setToolTip(tr("The latest revision beside the plan open here"));
    mReload->setToolTip(tr("Open the latest revision (unsaved edits here stay in the autosaved draft)"));
    auto* close = new QToolButton(this);
    close->setText(QStringLiteral("×"));
    close->setAutoRaise(true);
    close->setToolTip(tr("Hide until the next change"));
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(8, 4, 8, 4);
    layout->addWidget(mText, 1);
    layout->addWidget(mCompare);
    layout->addWidget(mReload);
    layout->addWidget(close);
    connect(mCompare, &QPushButton::clicked, this, &LiveLibrary::compare);
    connect(mReload, &QPushButton::clicked, this, &LiveLibrary::reload);
    connect(close, &QToolButton::clicked, this, &QWidget::hide);
    // Notifications come in bursts (a save is one, an import several): one re-read for a burst.
    auto* debounce = new QTimer(this);
    debounce->setSingleShot(true);
    debounce->setInterval(150);
    connect(debounce, &QTimer::timeout, this, &LiveLibrary::refresh);
    connect(mWatcher.get(), &store::LibraryWatcher::changed, debounce, qOverload<>(&QTimer::start));
    connect(mWatcher.get(), &store::LibraryWatcher::connectionLost, this, [this](bool lost) {
        if (lost)
            Q_EMIT mWorkbench.message(tr("Lost the connection to the team library; retrying every second"), 0);
        else
            Q_EMIT mWorkbench.message(tr("Connected to the team library again; re-read it"), 5000);
    });
    connect(&mWorkbench, &Workbench::documentReplaced, this, [this] {
        mShownRevision = 0;
        hide();
    });
    hide();
}

LiveLibrary::~LiveLibrary() = default;

QString LiveLibrary::text() const { return isVisible() ? mText->text() : QString(); }

void LiveLibrary::refresh()
{
    mPanel->reload(mWorkbench.library());
    const document::Document* doc = mWorkbench.document();
    if (!doc || !doc->libraryId() || !doc->revision() || doc->isReadOnly())
        return;
    const auto summary = mWorkbench.library().scenario(*doc->libraryId());
    if (!summary) {
        mText->setText(tr("<b>This scenario was deleted from the library</b> by a teammate: File > Save as New "
                          "Scenario keeps it."));
        mCompare->hide();
        mReload->hide();
        show();
        return;
    }
    const store::RevisionInfo& latest = summary->latest;
    if (latest.number <= *doc->revision() || latest.number == mShownRevision)
        return;
    mShownRevision = latest.number;
    mText->setText(tr("<b>%1</b> saved revision %2 at %3")
                       .arg((latest.author.isEmpty() ? tr("A teammate") : latest.author).toHtmlEscaped())
                       .arg(latest.number)
                       .arg(latest.createdAt.toLocalTime().toString("HH:mm")));
    mCompare->show();
    mReload->show();
    show();
}

void LiveLibrary::compare()
{
    const document::Document* doc = mWorkbench.document();
    if (!doc || !doc->libraryId())
        return;
    io::ScenarioReadResult latest =
        document::loadFromLibrary(mWorkbench.library(), *doc->libraryId(), mWorkbench.catalog());
    if (!latest.ok())
        return;
    latest.value->name += tr(" (revision %1)").arg(mShownRevision).toStdString();
    Scenario here = doc->scenario();
    here.name += tr(" (open here)").toStdString();
    mFiles->comparePlans({std::move(here), std::move(*latest.value)});
}

void LiveLibrary::reload()
{
    const document::Document* doc = mWorkbench.document();
    if (!doc || !doc->libraryId())
        return;
    if (doc->isModified() &&
        QMessageBox::question(this, tr("Reload the latest revision"),
                              tr("The plan open here has unsaved edits. Open the latest revision instead? Your edits "
                                 "stay in the autosaved draft, which the next start offers back."),
                              QMessageBox::Open | QMessageBox::Cancel) != QMessageBox::Open)
        return;
    const qint64 id = *doc->libraryId();
    mFiles->openFromLibrary(id);
}

} // namespace gp::ui
