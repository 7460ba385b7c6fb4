// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "recoverybar.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QStyle>

namespace gp::ui {

RecoveryBar::RecoveryBar(QWidget* parent)
    : QFrame(parent), mText(new QLabel(this)), mRestore(new QPushButton(tr("Restore"), this)),
      mDiscard(new QPushButton(tr("Discard…"), this))
{
    setObjectName("RecoveryBar");
    setFrameShape(QFrame::StyledPanel);
    // Amber, readable on light and dark palettes alike.
    setStyleSheet("#RecoveryBar { background: #fff4ce; border: 1px solid #e0b000; border-radius: 4px; }"
                  "#RecoveryBar QLabel { color: #3b2f00; }");
    mRestore->setObjectName("restoreDraft");
    mDiscard->setObjectName("discardDraft");
    mRestore->setToolTip(tr("Open the autosaved work as an unsaved change on top of the revision it started from"));
    mDiscard->setToolTip(tr("Delete the autosaved work for good"));
    mText->setWordWrap(true);
    mText->setTextFormat(Qt::RichText);
    auto* icon = new QLabel(this);
    icon->setPixmap(style()->standardIcon(QStyle::SP_MessageBoxWarning).pixmap(24, 24));
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(8, 4, 8, 4);
    layout->addWidget(icon);
    layout->addWidget(mText, 1);
    layout->addWidget(mRestore);
    layout->addWidget(mDiscard);
    connect(mRestore, &QPushButton::clicked, this, [this] { Q_EMIT restoreRequested(mSession); });
    connect(mDiscard, &QPushButton::clicked, this, [this] { Q_EMIT discardRequested(mSession); });
    hide();
}

void RecoveryBar::offer(const std::vector<store::Draft>& drafts, const std::map<qint64, QString>& scenarioNames)
{
    if (drafts.empty()) {
        mSession.clear();
        hide();
        return;
    }
    const store::Draft& d = drafts.front();
    mSession = d.session;
    QString origin = tr("a new scenario, never saved");
    if (d.scenarioId) {
        const auto it = scenarioNames.find(*d.scenarioId);
        if (it == scenarioNames.end())
            origin = tr("a scenario since deleted from the library");
        else if (d.baseRevision)
            origin = tr("changes to revision %1 of <i>%2</i>").arg(*d.baseRevision).arg(it->second.toHtmlEscaped());
        else
            origin = tr("changes to <i>%1</i>").arg(it->second.toHtmlEscaped());
    }
    const QString when = QLocale().toString(d.savedAt.toLocalTime(), QLocale::ShortFormat);
    QString text = tr("<b>Unsaved work was recovered:</b> <i>%1</i> (%2), autosaved %3 before gpuplan stopped.")
                       .arg(d.name.toHtmlEscaped(), origin, when);
    if (drafts.size() > 1)
        text += tr(" (1 of %1 recovered drafts)").arg(drafts.size());
    mText->setText(text);
    show();
}

QString RecoveryBar::text() const { return mText->text(); }

} // namespace gp::ui
