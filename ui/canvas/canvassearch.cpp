// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "canvassearch.h"

#include "canvasview.h"

#include <QAbstractItemView>
#include <QCompleter>
#include <QEvent>
#include <QKeyEvent>
#include <QStringListModel>

namespace gp::ui {

CanvasSearch::CanvasSearch(CanvasView* view)
    : CanvasOverlay(view, Qt::TopRightCorner), mField(new QLineEdit(this)), mCompleter(new QCompleter(this)),
      mModel(new QStringListModel(this))
{
    setObjectName("CanvasSearch");
    mField->setObjectName("CanvasSearchField");
    mField->setPlaceholderText(tr("Find a node, switch, job or tenant…"));
    mField->setClearButtonEnabled(true);
    mField->setMinimumWidth(300);
    mCompleter->setModel(mModel);
    mCompleter->setCaseSensitivity(Qt::CaseInsensitive);
    mCompleter->setFilterMode(Qt::MatchContains);
    mCompleter->setMaxVisibleItems(12);
    mField->setCompleter(mCompleter);
    mField->installEventFilter(this);
    connect(mField, &QLineEdit::returnPressed, this, &CanvasSearch::go);
    connect(mCompleter, qOverload<const QString&>(&QCompleter::activated), this, [this](const QString& text) {
        mField->setText(text);
        go();
    });
    connect(mField, &QLineEdit::textEdited, this, [this] { mField->setStyleSheet({}); });
    setFixedSize(320, mField->sizeHint().height());
    mField->setGeometry(rect());
    hide();
}

void CanvasSearch::setCandidates(std::vector<Candidate> candidates)
{
    mCandidates = std::move(candidates);
    QStringList labels;
    for (const Candidate& c : mCandidates)
        labels << c.label;
    mModel->setStringList(labels);
}

void CanvasSearch::open()
{
    place();
    show();
    raise();
    mField->setFocus(Qt::ShortcutFocusReason);
    mField->selectAll();
}

const CanvasSearch::Candidate* CanvasSearch::match(const QString& text) const
{
    const QString t = text.trimmed();
    if (t.isEmpty())
        return nullptr;
    for (const Candidate& c : mCandidates)
        if (c.label.compare(t, Qt::CaseInsensitive) == 0 || c.id.compare(t, Qt::CaseInsensitive) == 0)
            return &c;
    for (const Candidate& c : mCandidates)
        if (c.label.contains(t, Qt::CaseInsensitive))
            return &c;
    return nullptr;
}

void CanvasSearch::go()
{
    const Candidate* c = match(mField->text());
    if (!c) {
        mField->setStyleSheet("QLineEdit { border: 2px solid #c0392b; }");
        mField->setToolTip(tr("No node, switch, job or tenant matches “%1”").arg(mField->text()));
        return;
    }
    mField->setStyleSheet({});
    mField->setToolTip({});
    mCompleter->popup()->hide();
    Q_EMIT found(c->kind, c->id);
}

bool CanvasSearch::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == mField && event->type() == QEvent::KeyPress &&
        static_cast<QKeyEvent*>(event)->key() == Qt::Key_Escape) {
        hide();
        view()->setFocus();
        return true;
    }
    return CanvasOverlay::eventFilter(watched, event);
}

} // namespace gp::ui
